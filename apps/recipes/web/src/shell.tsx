import { useEffect, useMemo, useRef, useState } from "react";
import { TetherProvider } from "@tether-agent/tether/react";
import type { User } from "./api.ts";
import { CookbookPage } from "./cookbook-page.tsx";
import { KitchenPage, type OpenRecipe } from "./kitchen-page.tsx";
import type { KitchenTimers } from "./kitchen-timers.ts";
import { onScreenContext, type OnScreen } from "./on-screen.ts";
import { useRecipe, type RecipeBook } from "./recipe-book.ts";
import { go, replaceQuery, usePath, useQuery } from "./router.ts";
import { createRecipesSession } from "./session.ts";
import { recipeToolsFor } from "./tool-sets.ts";
import { RecipeTools } from "./tools/recipe-tools.tsx";
import { TopBar } from "./top-bar.tsx";
import type { Device } from "./use-device.ts";
import { useModelLabel } from "./use-model-label.ts";

/**
 * One person's Recipes: their conversation with the assistant (continued
 * after a reload, new after a profile switch), the tools their device and
 * profile hand the agent, and the two pages.
 */
export function Shell(props: {
  user: User;
  fresh: boolean;
  device: Device;
  book: RecipeBook;
  timers: KitchenTimers;
  switching: boolean;
  onSwitch(userId: string): void;
  onNewConversation(): void;
}) {
  const { user, device, book, timers } = props;
  const path = usePath();
  const model = useModelLabel();
  const open = useOpenRecipe(book);
  // What the agent hears of the screen, read as each run starts: the recipe and step in the kitchen, nothing elsewhere.
  const onScreen = useRef<OnScreen | undefined>(undefined);
  onScreen.current = path === "/" && open?.recipe ? { recipe: open.recipe, step: open.step } : undefined;
  const [session] = useState(() => createRecipesSession(user, { fresh: props.fresh, context: () => onScreenContext(onScreen.current) }));
  useEffect(() => {
    void session.restore();
  }, [session]);

  // The frontend's decision: which tools, worded how, for this person on this device. A change applies from the next run.
  const signedIn = user.signedIn;
  const vegetarian = user.diet === "vegetarian";
  const mobile = device === "mobile";
  const specs = useMemo(() => recipeToolsFor({ signedIn, vegetarian, mobile }), [signedIn, vegetarian, mobile]);
  const openRecipe = (recipeId: string) => go("/", { recipe: recipeId, step: "1" });

  return (
    <TetherProvider session={session}>
      <RecipeTools session={session} specs={specs} book={book} timers={timers} openRecipe={openRecipe} />
      <div className={`app app--${device}`}>
        <TopBar
          path={path}
          device={device}
          userId={user.id}
          switching={props.switching}
          onSwitch={props.onSwitch}
          onNewConversation={props.onNewConversation}
          threadId={session.threadId}
        />
        {path === "/cookbook" ? (
          <CookbookPage user={user} openRecipe={openRecipe} />
        ) : (
          <KitchenPage
            device={device}
            signedIn={signedIn}
            open={open}
            timers={timers}
            model={model}
            onStep={(step) => replaceQuery({ step: String(step) })}
            onClose={() => replaceQuery({ recipe: undefined, step: undefined })}
          />
        )}
      </div>
    </TetherProvider>
  );
}

/** The recipe the address names (`?recipe=r-204&step=2`), loaded, with its step kept within the recipe. */
function useOpenRecipe(book: RecipeBook): OpenRecipe | undefined {
  const recipeId = useQuery("recipe");
  const asked = Number(useQuery("step") ?? "1");
  const { recipe, error } = useRecipe(book, recipeId);
  if (!recipeId) return undefined;
  const step = recipe ? Math.min(Math.max(1, Number.isInteger(asked) ? asked : 1), recipe.steps.length) : 1;
  return { step, ...(recipe ? { recipe } : {}), ...(error ? { error } : {}) };
}
