import { useEffect, useRef } from "react";
import type { Ingredient } from "./read-recipe.ts";

/** The recipe's ingredients, each editable, with "+ Add ingredient" (the dojo's ingredient cards). */
export function RecipeIngredients(props: { ingredients: Ingredient[]; disabled: boolean; onChange(ingredients: Ingredient[]): void }) {
  const { ingredients, disabled, onChange } = props;
  const list = useRef<HTMLUListElement>(null);
  const added = useRef(false);
  // A new ingredient: the cursor goes to its name.
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    list.current?.querySelector<HTMLInputElement>("li:last-child input[data-field=name]")?.focus();
  }, [ingredients.length]);
  const change = (index: number, field: keyof Ingredient, value: string) =>
    onChange(ingredients.map((entry, at) => (at === index ? { ...entry, [field]: value } : entry)));
  return (
    <section className="recipe__section" aria-labelledby="ingredients-title">
      <h3 id="ingredients-title">Ingredients</h3>
      <ul className="ingredients" ref={list}>
        {ingredients.map((entry, index) => (
          <li key={index} className="ingredient">
            <span className="ingredient__icon" aria-hidden="true">
              {entry.icon || "•"}
            </span>
            <input
              data-field="name"
              aria-label={`Ingredient ${index + 1} name`}
              placeholder="Ingredient"
              value={entry.name}
              disabled={disabled}
              onChange={(event) => change(index, "name", event.target.value)}
            />
            <input
              aria-label={`Ingredient ${index + 1} amount`}
              placeholder="Amount"
              value={entry.amount}
              disabled={disabled}
              onChange={(event) => change(index, "amount", event.target.value)}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ingredient ${index + 1}${entry.name ? ` (${entry.name})` : ""}`}
              disabled={disabled}
              onClick={() => onChange(ingredients.filter((_, at) => at !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="add-button"
        disabled={disabled}
        onClick={() => {
          added.current = true;
          onChange([...ingredients, { icon: "", name: "", amount: "" }]);
        }}
      >
        + Add ingredient
      </button>
    </section>
  );
}
