export interface Haiku {
  japanese: string[];
  english: string[];
  image_name: string;
  gradient: string;
}

/**
 * A haiku as the dojo's page draws it: the Japanese lines with their English
 * translation on the gradient the agent chose. The picture is named, not
 * shown: the demo ships no images, so its caption stands in for it.
 */
export function HaikuCard({ haiku, size = "small" }: { haiku: Haiku; size?: "small" | "large" }) {
  // The agent's gradient, if CSS takes it; otherwise a plain one, so the text stays readable either way.
  const background = CSS.supports("background", haiku.gradient) ? haiku.gradient : undefined;
  return (
    <figure className={`haiku-card haiku-card--${size}`} style={background ? { background } : undefined} aria-label={`Haiku: ${haiku.english[0] ?? ""}`}>
      <div className="haiku-card__lines">
        {haiku.japanese.map((line, index) => (
          <p key={index} className="haiku-card__line">
            <span lang="ja" className="haiku-card__japanese">
              {line}
            </span>
            <span className="haiku-card__english">{haiku.english[index] ?? ""}</span>
          </p>
        ))}
      </div>
      <figcaption className="haiku-card__image">Image: {imageTitle(haiku.image_name)}</figcaption>
    </figure>
  );
}

/** "Mount_Fuji_Lake_Reflection.jpg" → "Mount Fuji Lake Reflection". */
function imageTitle(name: string): string {
  return name.replace(/\.[a-z]+$/i, "").replaceAll("_", " ");
}
