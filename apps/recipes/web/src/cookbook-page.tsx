import { useCallback, useEffect, useState } from "react";
import { RECIPES_API, getJson, sendJson, type CookbookEntry, type GroceryOrder, type User } from "./api.ts";
import { quantity } from "./quantity.ts";

type Loaded = { state: "loading" } | { state: "error"; message: string } | { state: "loaded"; cookbook: CookbookEntry[]; orders: GroceryOrder[] };

/** The signed-in person's saved recipes (open, remove) and the orders placed, with what each holds. */
export function CookbookPage({ user, openRecipe }: { user: User; openRecipe(recipeId: string): void }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [problem, setProblem] = useState<string>();
  const load = useCallback(async () => {
    try {
      const [{ cookbook }, { orders }] = await Promise.all([
        getJson<{ cookbook: CookbookEntry[] }>(`${RECIPES_API}/cookbook`),
        getJson<{ orders: GroceryOrder[] }>(`${RECIPES_API}/orders`),
      ]);
      setLoaded({ state: "loaded", cookbook, orders });
    } catch (error) {
      setLoaded({ state: "error", message: (error as Error).message });
    }
  }, []);
  useEffect(() => {
    if (user.signedIn) void load();
  }, [user.signedIn, load]);
  const remove = async (entry: CookbookEntry) => {
    setProblem(undefined);
    try {
      await sendJson("DELETE", `${RECIPES_API}/cookbook/${encodeURIComponent(entry.recipeId)}`);
      await load();
    } catch (error) {
      setProblem(`Could not remove ${entry.title}: ${(error as Error).message}`);
    }
  };

  if (!user.signedIn) {
    return (
      <main className="cookbook" aria-label="Cookbook">
        <h1>Cookbook</h1>
        <p className="cookbook__empty">Guests have no cookbook. Switch to Sam or Vera to save recipes and order their ingredients.</p>
      </main>
    );
  }
  return (
    <main className="cookbook" aria-label="Cookbook">
      <h1>{user.displayName.split(" ")[0]}'s cookbook</h1>
      {problem ? <p role="alert">{problem}</p> : null}
      {loaded.state === "loading" ? <p>Loading…</p> : null}
      {loaded.state === "error" ? <p role="alert">{loaded.message}</p> : null}
      {loaded.state === "loaded" ? (
        <>
          <section aria-labelledby="saved-heading">
            <h2 id="saved-heading">Saved recipes</h2>
            {loaded.cookbook.length === 0 ? (
              <p className="cookbook__empty">Nothing saved yet. Ask the assistant to “save egg fried rice”.</p>
            ) : (
              <ul className="saved" aria-label="Saved recipes">
                {loaded.cookbook.map((entry) => (
                  <li key={entry.recipeId} className="saved__entry">
                    <button type="button" className="saved__open" onClick={() => openRecipe(entry.recipeId)}>
                      {entry.title}
                    </button>
                    <span className="saved__when">saved {when(entry.savedAt)}</span>
                    <button type="button" className="saved__remove" onClick={() => void remove(entry)} aria-label={`Remove ${entry.title}`}>
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="orders-heading">
            <h2 id="orders-heading">Orders</h2>
            {loaded.orders.length === 0 ? (
              <p className="cookbook__empty">No orders yet. The assistant asks before it orders anything.</p>
            ) : (
              <ul className="orders" aria-label="Orders">
                {loaded.orders.map((order) => (
                  <li key={order.orderId} className="order">
                    <h3>
                      {order.title} <span className="order__servings">· {order.servings} servings</span>
                    </h3>
                    <p className="order__meta">
                      {order.orderId} · placed {when(order.placedAt)}
                    </p>
                    <ul className="order__items" aria-label={`Items of ${order.orderId}`}>
                      {order.items.map((item) => (
                        <li key={item.name}>
                          <span className="ingredients__amount">{quantity(item)}</span> {item.name}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      ) : null}
    </main>
  );
}

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
