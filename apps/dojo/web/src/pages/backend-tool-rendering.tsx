import { ChatLayout, type PageProps } from "../parts/layouts.tsx";
import { useWeatherCards } from "../parts/weather-card.tsx";

/** backend_tool_rendering: the server tool get_weather drawn as a card in the conversation, from its call and result. */
export function BackendToolRenderingPage({ panel }: PageProps) {
  useWeatherCards();
  return <ChatLayout label="Weather chat" panel={panel} />;
}
