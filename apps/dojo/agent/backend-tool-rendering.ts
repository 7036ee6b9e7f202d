import type { Playbook } from "@tether-agent/tether/server";
import { getWeather, type Weather } from "./weather.ts";

/** A server tool the page draws as a card (`useToolRenderer("get_weather", …)`): the call and its result, not words. */
export const backendToolRendering = {
  id: "backend_tool_rendering",
  description: "Looks up the (demo) weather with a server tool the page draws as a card.",
  instructions:
    "For any question about the weather, call get_weather with the city. The page draws the result as a card: afterwards, add one short sentence at most.",
  tools: [getWeather],
  welcome: {
    greeting: "How can I help you today?",
    suggestions: ["What's the weather like in San Francisco?", "Tell me about the weather in New York.", "How is the weather in Tokyo?"],
  },
};

/** The offline model for backend_tool_rendering: one get_weather call per question, then a sentence. */
export const backendToolRenderingPlaybook: Playbook = {
  name: "backend_tool_rendering",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    if (latest?.toolName === "get_weather") {
      if (latest.isError) return { text: "I couldn't get the weather for that place." };
      const weather = latest.output as Weather;
      return { text: `Here's the weather in ${weather.city} (demo figures).` };
    }
    const said = conversation.userText;
    const place = /weather (?:like )?(?:in|for|at) ([^?.!]+)/i.exec(said)?.[1] ?? (/weather/i.test(said) ? "San Francisco" : undefined);
    if (!place) return { text: 'Ask me about the weather somewhere ("What\'s the weather like in Tokyo?").' };
    return { toolCalls: [{ toolName: "get_weather", input: { location: place.trim() } }] };
  },
};
