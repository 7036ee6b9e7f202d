import type { Recipe } from "./api.ts";
import type { Device } from "./use-device.ts";
import { duration, quantity } from "./quantity.ts";

/**
 * The open recipe: what it needs (with quantities) and its steps (with how
 * long each takes), and a pointer to the step the person is on. The agent
 * hears of the recipe and the step with each run (see on-screen.ts).
 */
export function RecipeView({
  recipe,
  step,
  device,
  onStep,
  onClose,
}: {
  recipe: Recipe;
  step: number;
  device: Device;
  onStep(step: number): void;
  onClose(): void;
}) {
  const total = recipe.steps.length;
  const current = recipe.steps[step - 1]!;
  const ingredients = (
    <ul className="ingredients">
      {recipe.ingredients.map((ingredient) => (
        <li key={ingredient.name}>
          <span className="ingredients__amount">{quantity(ingredient)}</span> {ingredient.name}
        </li>
      ))}
    </ul>
  );
  const steps = (
    <ol className="steps">
      {recipe.steps.map((each, index) => (
        <li
          key={index}
          className={index + 1 === step ? "steps__step steps__step--current" : "steps__step"}
          aria-current={index + 1 === step ? "step" : undefined}
        >
          <button type="button" className="steps__pick" onClick={() => onStep(index + 1)} aria-label={`Go to step ${index + 1}`}>
            {index + 1}
          </button>
          <span className="steps__text">{each.text}</span>
          <span className="steps__time">{duration(each.seconds)}</span>
        </li>
      ))}
    </ol>
  );
  return (
    <article className={`recipe recipe--${device}`} aria-labelledby="recipe-title">
      <header className="recipe__header">
        <div>
          <h1 id="recipe-title">{recipe.title}</h1>
          <p className="recipe__facts">
            <span>{recipe.minutes} min</span>
            <span>serves {recipe.servings}</span>
            {recipe.diets.map((diet) => (
              <span key={diet} className="recipe__diet">
                {diet}
              </span>
            ))}
          </p>
        </div>
        <button type="button" className="recipe__close" onClick={onClose}>
          Close recipe
        </button>
      </header>
      <section className="pointer" aria-label="Current step">
        <p className="pointer__position" aria-live="polite">
          Step {step} of {total}
        </p>
        <p className="pointer__text">{current.text}</p>
        <p className="pointer__time">about {duration(current.seconds)}</p>
        <div className="pointer__moves">
          <button type="button" onClick={() => onStep(step - 1)} disabled={step <= 1}>
            ← Previous step
          </button>
          <button type="button" onClick={() => onStep(step + 1)} disabled={step >= total}>
            Next step →
          </button>
        </div>
      </section>
      {device === "mobile" ? (
        <>
          <details className="recipe__fold">
            <summary>Ingredients ({recipe.ingredients.length})</summary>
            {ingredients}
          </details>
          <details className="recipe__fold">
            <summary>All steps ({total})</summary>
            {steps}
          </details>
        </>
      ) : (
        <div className="recipe__columns">
          <section aria-label="Ingredients">
            <h2>Ingredients</h2>
            {ingredients}
          </section>
          <section aria-label="Steps">
            <h2>Steps</h2>
            {steps}
          </section>
        </div>
      )}
    </article>
  );
}
