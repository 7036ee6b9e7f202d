// The page's dev server and build. In development it passes /api on to the Tether server
// (server.ts, on PORT), so the page reaches the API on its own origin.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  server: {
    host: "127.0.0.1",
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true, // the address `npm run dev` printed, or a plain "port in use" error
    // The object form keeps the page's Host header, so a cookie sign-in needs no trustedOrigins.
    proxy: { "/api": { target: `http://127.0.0.1:${process.env.PORT ?? 8787}` } },
  },
});
