import { createHash } from "node:crypto";
import { defineTool } from "@tether-agent/tether/server";
import { z } from "zod";

/** What get_weather answers: the fields the dojo's weather cards read (camelCase, as Mastra's tool returns them). */
export interface Weather {
  city: string;
  temperature: number;
  feelsLike: number;
  humidity: number;
  windSpeed: number;
  windGust: number;
  conditions: string;
  /** Said plainly, so neither the model nor the person takes it for a forecast. */
  source: "demo data";
}

const CONDITIONS = ["Clear sky", "Partly cloudy", "Overcast", "Light rain", "Showers", "Fog", "Light snow", "Thunderstorm"];

/**
 * The weather for a place, invented: the demo has no network, so each city
 * gets its own made-up weather, the same every time (a hash of its name), and
 * the result says it is demo data.
 */
export function demoWeather(location: string): Weather {
  const city = location.trim().replace(/\s+/g, " ");
  const bytes = createHash("sha256").update(city.toLowerCase()).digest();
  const temperature = (bytes[0]! % 40) - 5;
  const windSpeed = 2 + (bytes[2]! % 40);
  return {
    city,
    temperature,
    feelsLike: temperature - (bytes[3]! % 5),
    humidity: 20 + (bytes[1]! % 75),
    windSpeed,
    windGust: windSpeed + (bytes[4]! % 20),
    conditions: CONDITIONS[bytes[5]! % CONDITIONS.length]!,
    source: "demo data",
  };
}

/** The dojo's server tool: its name and arguments are those of the dojo's pages and fixtures. */
export const getWeather = defineTool({
  name: "get_weather",
  description: "Get current weather for a location. This demo invents the figures (the same for a city every time): say so if asked where they come from.",
  parameters: z.object({ location: z.string().min(1).max(100).describe("City name") }),
  execute: ({ location }) => demoWeather(location),
});
