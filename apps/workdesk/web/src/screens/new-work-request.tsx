import { useDisplayed } from "../displayed.ts";
import type { ScreenProps } from "./screen-props.ts";

export function NewWorkRequestScreen({ path }: ScreenProps) {
  useDisplayed(path, true);
  return (
    <>
      <h1>New work request</h1>
      <form className="form" onSubmit={(event) => event.preventDefault()}>
        <label>
          Title <input name="title" />
        </label>
        <label>
          Priority{" "}
          <select name="priority" defaultValue="medium">
            <option value="low">Low</option>
            <option value="medium">Medium</option>
            <option value="high">High</option>
          </select>
        </label>
        <label>
          Description <textarea name="description" rows={4} />
        </label>
        <p className="hint">Filing requests is not part of this demo.</p>
      </form>
    </>
  );
}
