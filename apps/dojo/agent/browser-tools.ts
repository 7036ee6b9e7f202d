/**
 * The browser tools of the dojo's feature pages, with the names and shapes
 * those pages declare. Apart from the agents' server code, so that Tether's
 * own /dojo/ pages hand over the very specs the agents allow.
 */
import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { z } from "zod";

/**
 * The dojo page's own browser tool, exactly as its page declares it: the
 * allow-list compares shape, and the page's zod has no length bounds.
 */
export const changeBackground = defineBrowserTool({
  name: "change_background",
  description:
    "Change the background color of the chat. Can be anything that the CSS background attribute accepts. Regular colors, linear of radial gradients etc.",
  parameters: z.object({ background: z.string().describe("The background. Prefer gradients. Only use when asked.") }),
});

/** A step of a plan the person picks from: `enabled` ticked, `disabled` unticked. */
const taskStep = z.object({ description: z.string(), status: z.enum(["enabled", "disabled", "executing"]) });

/**
 * The dojo page's tool: it shows the steps, the person unticks some and
 * confirms or rejects. Its shape is the page's declaration, without bounds of
 * its own: the allow-list compares shape, and the page's zod has none.
 */
export const generateTaskSteps = defineBrowserTool({
  name: "generate_task_steps",
  description: "Generates a list of steps for the user to perform",
  parameters: z.object({ steps: z.array(taskStep) }),
});

/** The images the dojo's haiku page has (public/images in the dojo; Tether's /dojo/ page shows the name, not the picture). */
export const HAIKU_IMAGES = [
  "Osaka_Castle_Turret_Stone_Wall_Pine_Trees_Daytime.jpg",
  "Tokyo_Skyline_Night_Tokyo_Tower_Mount_Fuji_View.jpg",
  "Itsukushima_Shrine_Miyajima_Floating_Torii_Gate_Sunset_Long_Exposure.jpg",
  "Takachiho_Gorge_Waterfall_River_Lush_Greenery_Japan.jpg",
  "Bonsai_Tree_Potted_Japanese_Art_Green_Foliage.jpeg",
  "Shirakawa-go_Gassho-zukuri_Thatched_Roof_Village_Aerial_View.jpg",
  "Ginkaku-ji_Silver_Pavilion_Kyoto_Japanese_Garden_Pond_Reflection.jpg",
  "Senso-ji_Temple_Asakusa_Cherry_Blossoms_Kimono_Umbrella.jpg",
  "Cherry_Blossoms_Sakura_Night_View_City_Lights_Japan.jpg",
  "Mount_Fuji_Lake_Reflection_Cherry_Blossoms_Sakura_Spring.jpg",
] as const;

/**
 * The dojo page's tool: it draws the haiku as a card. Render-only: the page
 * showing it is the whole of the answer, so no run follows its result (the
 * dojo's `followUp: false`). Its shape is the page's declaration, without
 * length bounds (the allow-list compares shape; the page's zod has none); the
 * description is ours, as the page declares none.
 */
export const generateHaiku = defineBrowserTool({
  name: "generate_haiku",
  description: "Show a haiku as a card, in Japanese with its English translation, an image and a background gradient.",
  kind: "render-only",
  parameters: z.object({
    japanese: z.array(z.string()).describe("3 lines of haiku in Japanese"),
    english: z.array(z.string()).describe("3 lines of haiku translated to English"),
    image_name: z.string().describe(`One relevant image name from: ${HAIKU_IMAGES.join(", ")}`),
    gradient: z.string().describe("CSS Gradient color for the background"),
  }),
});

/** The dojo page's confirmation: it asks the person to accept or reject the change (`{ accepted }`). */
export const confirmChanges = defineBrowserTool({
  name: "confirm_changes",
  description: "Ask the person to accept or reject the changes just written to the document.",
  parameters: z.object({}),
});

/**
 * The page's other way to propose a document for review (its own
 * human-in-the-loop tool), its shape exactly the page's: no length bound.
 */
export const writeDocument = defineBrowserTool({
  name: "write_document",
  description: "Present the proposed changes to the user for review",
  parameters: z.object({ document: z.string().describe("The full updated document in markdown format") }),
});
