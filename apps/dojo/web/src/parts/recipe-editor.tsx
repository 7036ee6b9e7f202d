import { useId } from "react";
import { COOKING_TIMES, PREFERENCES, SKILL_LEVELS, type Recipe } from "./read-recipe.ts";
import { RecipeIngredients } from "./recipe-ingredients.tsx";
import { RecipeInstructions } from "./recipe-instructions.tsx";

/** The recipe card: every field the dojo's page edits, changed through `onChange` with the fields that changed. */
export function RecipeEditor(props: { recipe: Recipe; disabled: boolean; onChange(change: Partial<Recipe>): void }) {
  const { recipe, disabled, onChange } = props;
  const id = useId();
  const togglePreference = (preference: string, on: boolean) =>
    onChange({ special_preferences: on ? [...recipe.special_preferences, preference] : recipe.special_preferences.filter((entry) => entry !== preference) });
  return (
    <article className="recipe" aria-label="Recipe">
      <label className="recipe__title">
        <span className="visually-hidden">Recipe title</span>
        <input value={recipe.title} placeholder="Recipe title" disabled={disabled} onChange={(event) => onChange({ title: event.target.value })} />
      </label>
      <div className="recipe__meta">
        <label htmlFor={`${id}-skill`}>Skill level</label>
        <select
          id={`${id}-skill`}
          value={recipe.skill_level}
          disabled={disabled}
          onChange={(event) => onChange({ skill_level: event.target.value as Recipe["skill_level"] })}
        >
          {SKILL_LEVELS.map((level) => (
            <option key={level}>{level}</option>
          ))}
        </select>
        <label htmlFor={`${id}-time`}>Cooking time</label>
        <select
          id={`${id}-time`}
          value={recipe.cooking_time}
          disabled={disabled}
          onChange={(event) => onChange({ cooking_time: event.target.value as Recipe["cooking_time"] })}
        >
          {COOKING_TIMES.map((time) => (
            <option key={time}>{time}</option>
          ))}
        </select>
      </div>
      <fieldset className="recipe__preferences" disabled={disabled}>
        <legend>Dietary preferences</legend>
        {PREFERENCES.map((preference) => (
          <label key={preference} className="chip">
            <input
              type="checkbox"
              checked={recipe.special_preferences.includes(preference)}
              onChange={(event) => togglePreference(preference, event.target.checked)}
            />
            {preference}
          </label>
        ))}
      </fieldset>
      <RecipeIngredients ingredients={recipe.ingredients} disabled={disabled} onChange={(ingredients) => onChange({ ingredients })} />
      <RecipeInstructions instructions={recipe.instructions} disabled={disabled} onChange={(instructions) => onChange({ instructions })} />
    </article>
  );
}
