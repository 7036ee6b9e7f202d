import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import "@tether-agent/tether/styles.css";
import "./styles.css";
import "./feature-views.css";
import "./tool-cards.css";

createRoot(document.getElementById("root")!).render(<App />);
