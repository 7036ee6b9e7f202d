import type { Playbook } from "@tether-agent/tether/server";
import { HAIKU_IMAGES, generateHaiku } from "./browser-tools.ts";

// The page's tool lives in browser-tools.ts (the /dojo/ pages bundle it); still exported here, beside its agent.
export { HAIKU_IMAGES, generateHaiku };

export const toolBasedGenerativeUi = {
  id: "tool_based_generative_ui",
  description: "Writes haiku and shows each as a card the page draws.",
  instructions:
    "When asked for a haiku, call generate_haiku with three lines in Japanese, their English translation, one of the listed images and a CSS gradient. Do not repeat the haiku in text.",
  browserTools: [generateHaiku],
  welcome: {
    greeting: "How can I help you today?",
    suggestions: ["Write me a haiku about nature.", "Create a haiku about the ocean.", "Generate a haiku about spring."],
  },
};

interface Haiku {
  japanese: string[];
  english: string[];
  image_name: (typeof HAIKU_IMAGES)[number];
  gradient: string;
}

/** The offline model's haiku, by topic (two are the dojo fixtures'). */
const HAIKU: Array<{ match: RegExp; haiku: Haiku }> = [
  {
    match: /always win/i,
    haiku: {
      japanese: ["勝利の道を", "常に歩み続ける", "勝つ運命よ"],
      english: ["On the path of victory", "I will always keep walking", "Destined to always win"],
      image_name: "Mount_Fuji_Lake_Reflection_Cherry_Blossoms_Sakura_Spring.jpg",
      gradient: "linear-gradient(135deg, #667eea 0%, #764ba2 100%)",
    },
  },
  {
    match: /moon/i,
    haiku: {
      japanese: ["月明かり", "静かな夜に", "光る道"],
      english: ["The moon shines bright", "In the quiet of the night", "A path of light"],
      image_name: "Cherry_Blossoms_Sakura_Night_View_City_Lights_Japan.jpg",
      gradient: "linear-gradient(135deg, #1e3c72 0%, #2a5298 100%)",
    },
  },
  {
    match: /ocean|sea|wave/i,
    haiku: {
      japanese: ["青い海", "波が寄せては", "また返す"],
      english: ["The deep blue ocean", "Waves come rolling to the shore", "And go back again"],
      image_name: "Itsukushima_Shrine_Miyajima_Floating_Torii_Gate_Sunset_Long_Exposure.jpg",
      gradient: "linear-gradient(135deg, #00c6ff 0%, #0072ff 100%)",
    },
  },
  {
    match: /spring|blossom|sakura/i,
    haiku: {
      japanese: ["桜咲く", "春の風吹く", "花の道"],
      english: ["Cherry blossoms bloom", "The spring breeze is blowing by", "A path of petals"],
      image_name: "Senso-ji_Temple_Asakusa_Cherry_Blossoms_Kimono_Umbrella.jpg",
      gradient: "linear-gradient(135deg, #f6d365 0%, #fda085 100%)",
    },
  },
];

const NATURE: Haiku = {
  japanese: ["古い松", "苔むす石に", "風の音"],
  english: ["An old pine tree stands", "On stones covered deep in moss", "The sound of the wind"],
  image_name: "Takachiho_Gorge_Waterfall_River_Lush_Greenery_Japan.jpg",
  gradient: "linear-gradient(135deg, #43e97b 0%, #38f9d7 100%)",
};

/** The offline model for tool_based_generative_ui: a haiku from its table, drawn by the page. */
export const toolBasedGenerativeUiPlaybook: Playbook = {
  name: "tool_based_generative_ui",
  respond(conversation) {
    if (conversation.results.length > 0) return { text: "There's your haiku." };
    if (!/haiku/i.test(conversation.userText)) return { text: 'Ask me for a haiku ("Write me a haiku about nature.") and the page draws it.' };
    if (!conversation.tools.includes("generate_haiku")) return { text: "This page can't draw haiku cards." };
    const haiku = HAIKU.find((entry) => entry.match.test(conversation.userText))?.haiku ?? NATURE;
    return { toolCalls: [{ toolName: "generate_haiku", input: haiku }] };
  },
};
