/**
 * The demo server as `bench/story` measures it: `createDemo` as `npm start`
 * builds it (SQLite in TETHER_DATA_DIR, demo sign-in), both agents on
 * `openai:gpt-4o-mini` at OPENAI_BASE_URL, or, with STORY_REPLAY=1, on the
 * same model's answers replayed from memory after the first of each kind.
 * Sign-in tokens are signed with STORY_SECRET.
 * Prints `listening <url>` once it serves; logs nothing per request.
 */
import { silentLogger } from "@tether-agent/tether/server";
import { createModel, parseModelSpec } from "../../apps/model-from-environment.ts";
import { serveDemoProcess } from "../../test/helpers/serve-demo-process.ts";
import { replayModel } from "./replay-model.ts";

const env = { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: "bench" };
const replay = process.env.STORY_REPLAY === "1";

await serveDemoProcess({
  dataDir: process.env.TETHER_DATA_DIR!,
  logger: silentLogger,
  secret: process.env.STORY_SECRET!,
  env,
  ...(replay ? { model: replayModel(await createModel(parseModelSpec(env.TETHER_MODEL), env)) } : {}),
});
