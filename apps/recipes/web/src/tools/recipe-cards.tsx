import type { OfferRecipesArgs } from "../../../agent/browser-tools.ts";
import { useRecipe, type RecipeBook } from "../recipe-book.ts";

/** offer_recipes' cards in the conversation: each opens its recipe in the content area. */
export function RecipeCards({ args, book, openRecipe }: { args: OfferRecipesArgs | undefined; book: RecipeBook; openRecipe(recipeId: string): void }) {
  if (!args?.recipes?.length) return <p className="cards__loading">Finding recipes…</p>;
  return (
    <ul className={`cards cards--${Math.min(args.recipes.length, 3)}`} aria-label="Recipe suggestions">
      {args.recipes.map((offer) => (
        <li key={offer.id}>
          <RecipeCard offer={offer} book={book} onOpen={() => openRecipe(offer.id)} />
        </li>
      ))}
    </ul>
  );
}

function RecipeCard({ offer, book, onOpen }: { offer: OfferRecipesArgs["recipes"][number]; book: RecipeBook; onOpen(): void }) {
  const { recipe, error } = useRecipe(book, offer.id);
  return (
    <button type="button" className="card" onClick={onOpen} disabled={error !== undefined}>
      <span className={`card__art card__art--${Number(offer.id.slice(-1)) % 4}`} aria-hidden="true">
        {artFor(offer.title)}
      </span>
      <span className="card__title">{offer.title}</span>
      <span className="card__reason">{offer.reason}</span>
      <span className="card__meta">
        {recipe ? (
          <>
            <span className="card__minutes">{recipe.minutes} min</span>
            <span>serves {recipe.servings}</span>
            {recipe.diets.includes("vegetarian") ? <span className="card__diet">vegetarian</span> : null}
          </>
        ) : error ? (
          <span className="card__error">{error}</span>
        ) : (
          <span>…</span>
        )}
      </span>
    </button>
  );
}

/** A dish-shaped emoji for the card, from words in the title: decoration, hidden from screen readers. */
function artFor(title: string): string {
  const words: Array<[RegExp, string]> = [
    [/rice|risotto|arancini|congee/i, "🍚"],
    [/soup|dal|chilli|curry|masala|rendang/i, "🍲"],
    [/salad/i, "🥗"],
    [/spaghetti|pasta|penne|linguine|macaroni|noodle/i, "🍝"],
    [/pancake/i, "🥞"],
    [/egg|omelette|shakshuka/i, "🍳"],
    [/bread|focaccia|toast|scone/i, "🍞"],
    [/cookie|muffin|cake|crumble|mousse|granola|pudding/i, "🍪"],
    [/fish|salmon|taco/i, "🐟"],
    [/chicken/i, "🍗"],
    [/burrito|bowl/i, "🌯"],
  ];
  return words.find(([pattern]) => pattern.test(title))?.[1] ?? "🍽️";
}
