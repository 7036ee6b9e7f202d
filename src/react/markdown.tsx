import { Streamdown } from "streamdown";

// Tables and code blocks get a copy button; downloads and full-screen views are left to the app.
const CONTROLS = { table: { copy: true, download: false, fullscreen: false }, code: { copy: true, download: false } } as const;
// A model's words may carry what a prompt injection put there: no images (a remote image is a request to a server
// the model chose, able to carry data out in its URL).
const DISALLOWED = ["img"];

/**
 * An answer's markdown (lists, tables, code, links), rendered with Streamdown:
 * made for text that is still streaming (an unclosed emphasis or code fence
 * renders as it will end, block by block, so finished blocks never re-render,
 * also when the answer ends),
 * sanitised (raw HTML cut to GitHub's safe subset, no scripts or images,
 * `javascript:` links never become links), and links open in a new tab
 * without access to this page.
 */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <Streamdown
      className="tether-markdown"
      mode="streaming"
      isAnimating={streaming}
      controls={CONTROLS}
      linkSafety={{ enabled: false }}
      disallowedElements={DISALLOWED}
    >
      {text}
    </Streamdown>
  );
}
