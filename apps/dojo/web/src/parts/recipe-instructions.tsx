/** The recipe's steps, each editable, with "+ Add step". */
export function RecipeInstructions(props: { instructions: string[]; disabled: boolean; onChange(instructions: string[]): void }) {
  const { instructions, disabled, onChange } = props;
  return (
    <section className="recipe__section" aria-labelledby="instructions-title">
      <h3 id="instructions-title">Instructions</h3>
      <ol className="instructions">
        {instructions.map((step, index) => (
          <li key={index} className="instruction">
            <span className="instruction__number" aria-hidden="true">
              {index + 1}
            </span>
            <textarea
              aria-label={`Step ${index + 1}`}
              rows={2}
              value={step}
              disabled={disabled}
              onChange={(event) => onChange(instructions.map((entry, at) => (at === index ? event.target.value : entry)))}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove step ${index + 1}`}
              disabled={disabled}
              onClick={() => onChange(instructions.filter((_, at) => at !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="add-button" disabled={disabled} onClick={() => onChange([...instructions, ""])}>
        + Add step
      </button>
    </section>
  );
}
