import { useToolRenderer } from "@tether-agent/tether/react";
import type { Weather } from "../../../agent/weather.ts";

// Symbols from the Basic Multilingual Plane, drawn by text fonts too: a machine without an emoji font still shows them.
const ICONS: Record<string, string> = {
  "Clear sky": "☀",
  "Partly cloudy": "⛅",
  Overcast: "☁",
  "Light rain": "☂",
  Showers: "☂",
  Fog: "≋",
  "Light snow": "❄",
  Thunderstorm: "⚡",
};

/**
 * Draws every call of the server tool `get_weather` in the conversation: the
 * place while the call runs, then a card from its result (the dojo's weather card).
 */
export function useWeatherCards(): void {
  useToolRenderer<{ location: string }, Weather>("get_weather", ({ status, partialArgs, result, error }) => {
    const where = partialArgs?.location ?? "…";
    if (status === "failed")
      return (
        <p className="tool-note tool-note--failed">
          No weather for {where}: {error}
        </p>
      );
    if (status !== "done" || !result || typeof result !== "object") {
      return (
        <p className="tool-note" role="status">
          <span className="spinner" aria-hidden="true" /> Retrieving the weather in {where}…
        </p>
      );
    }
    return <WeatherCard weather={result} />;
  });
}

function WeatherCard({ weather }: { weather: Weather }) {
  return (
    <section className="weather-card" aria-label={`Weather in ${weather.city}`}>
      <header className="weather-card__header">
        <div>
          <h3>{weather.city}</h3>
          <p>Current weather · {weather.conditions}</p>
        </div>
        <span className="weather-card__icon" aria-hidden="true">
          {ICONS[weather.conditions] ?? "☁"}
        </span>
      </header>
      <p className="weather-card__temperature">{weather.temperature} °C</p>
      <dl className="weather-card__figures">
        <div>
          <dt>Humidity</dt>
          <dd>{weather.humidity}%</dd>
        </div>
        <div>
          <dt>Wind</dt>
          <dd>{weather.windSpeed} km/h</dd>
        </div>
        <div>
          <dt>Feels like</dt>
          <dd>{weather.feelsLike} °C</dd>
        </div>
      </dl>
      <p className="weather-card__source">Demo figures, not a forecast.</p>
    </section>
  );
}
