import type { Playbook, PlaybookConversation, ScriptedTurn } from "@tether-agent/tether/server";
import { changeBackground } from "./browser-tools.ts";
import { readBrowserResult } from "./browser-result.ts";
import { getWeather, type Weather } from "./weather.ts";

// The page's tool lives in browser-tools.ts (the /dojo/ pages bundle it); still exported here, beside its agent.
export { changeBackground };

export const agenticChat = {
  id: "agentic_chat",
  description: "Chat with memory of the conversation; changes the page's background and tells the (demo) weather.",
  instructions:
    "You are a friendly assistant. Remember what the person told you earlier in the conversation. " +
    "Change the chat's background with change_background only when asked, and say it changed only once the result says so. " +
    "Use get_weather for the weather; its figures are demo data.",
  tools: [getWeather],
  browserTools: [changeBackground],
  welcome: {
    greeting: "How can I help you today?",
    suggestions: ["Change the background to a blue gradient", "What is the weather in Oslo?", "My name is Alex"],
  },
};

const SONNET = [
  "Of circuits spun, a patient mind awakes,",
  "It reads the words we leave and answers back;",
  "It learns the shape each careful question takes,",
  "And lights the lamp along the unlit track.",
  "Yet all it knows, it knows from what we gave,",
  "A mirror cut from every page we wrote;",
  "So let us write it wise, and kind, and brave,",
  "And hear ourselves within its steady note.",
].join("\n");

/** The offline model for agentic_chat: the dojo fixtures' conversations, answered from the conversation itself. */
export const agenticChatPlaybook: Playbook = {
  name: "agentic_chat",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    if (latest?.toolName === "change_background") {
      const result = readBrowserResult(latest.output);
      const asked = askedBackground(conversation.userText) ?? (latest.input as { background?: string } | undefined)?.background ?? "the new background";
      if (result.done) return { text: `Done: the background is ${asked} now.` };
      return { text: `I couldn't confirm the background changed${result.message ? `: ${result.message}` : "."}` };
    }
    if (latest?.toolName === "get_weather") return { text: weatherWords(latest.output as Weather) };
    return answer(conversation);
  },
};

function answer(conversation: PlaybookConversation): ScriptedTurn {
  const said = conversation.userText.trim();
  const background = askedBackground(said);
  if (background) {
    if (!conversation.tools.includes("change_background")) return { text: "This page doesn't let me change its background." };
    return { toolCalls: [{ toolName: "change_background", input: { background: cssBackground(background.replace(/^(?:a|an|the)\s+/i, "")) } }] };
  }
  const weather = /weather (?:like )?in ([^?.!]+)/i.exec(said);
  if (weather) return { toolCalls: [{ toolName: "get_weather", input: { location: weather[1]!.trim() } }] };
  const earlier = conversation.userTexts.slice(0, -1);
  if (/what (?:is|was) my (?:first|1st) question/i.test(said)) {
    return { text: earlier.length > 0 ? `Your first question was: "${earlier[0]}"` : "This is your first message, so there is no earlier question yet." };
  }
  const fact = /what(?:'s| is) my (name|favou?rite [a-z]+)/i.exec(said) ?? /remind me (?:of )?what my (favou?rite [a-z]+)/i.exec(said);
  if (fact) return { text: recall(fact[1]!.toLowerCase(), earlier, conversation.system) };
  const told = /my (name|favou?rite [a-z]+) is ([^.!?]+)/i.exec(said);
  if (told)
    return {
      text: told[1]!.toLowerCase() === "name" ? `Nice to meet you, ${told[2]!.trim()}!` : `Got it: your ${told[1]!.toLowerCase()} is ${told[2]!.trim()}.`,
    };
  if (/sonnet/i.test(said)) return { text: SONNET };
  if (/capital of france/i.test(said)) return { text: "The capital of France is Paris." };
  if (/^(hi|hello|hey)\b/i.test(said)) return { text: "Hello! How can I assist you today?" };
  return {
    text: 'I\'m the offline playbook model, a script rather than a language model. I can change the background, tell you the (demo) weather, and remember what you tell me ("my name is Alex", then "what is my name?").',
  };
}

/** The background the person asks for, in their words ("a blue gradient"), if they ask to change it. */
function askedBackground(said: string): string | undefined {
  const asked = /background(?: colou?r)?(?: to| into)?\s+(.+?)[.!?]*$/i.exec(said.trim());
  return asked && /change|set|make|turn/i.test(said) ? asked[1] : undefined;
}

/**
 * The background as CSS, which the tool takes: "blue gradient" becomes a gradient of blue, as a model would
 * write it; anything else goes as said (a colour name is CSS already, and the page refuses what is not).
 */
function cssBackground(asked: string): string {
  const gradient = /^([a-z]+)\s+gradient$/i.exec(asked);
  return gradient ? `linear-gradient(135deg, ${gradient[1]!.toLowerCase()} 0%, white 100%)` : asked;
}

/** What the person said earlier about `subject`, or what the page's context says (the dojo page sends the user's name). */
function recall(subject: string, earlier: string[], system: string): string {
  const key = subject.replace("favorite", "favou?rite").replace("favourite", "favou?rite");
  for (const text of [...earlier].reverse()) {
    const found = new RegExp(`my ${key} is ([^.!?]+)`, "i").exec(text);
    if (found) return subject === "name" ? `Your name is ${found[1]!.trim()}!` : `Your ${subject} is ${found[1]!.trim()}!`;
  }
  const fromPage = subject === "name" ? /Name of the user:\s*(.+)/.exec(system) : undefined;
  if (fromPage) return `The page says your name is ${fromPage[1]!.trim()}.`;
  return `You haven't told me your ${subject} yet.`;
}

function weatherWords(weather: Weather): string {
  return `In ${weather.city} it's ${weather.conditions.toLowerCase()}, ${weather.temperature}°C (feels like ${weather.feelsLike}°C), humidity ${weather.humidity}%, wind ${weather.windSpeed} km/h. These are demo figures, not a forecast.`;
}
