import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./server-process.ts";

/** Debian's nginx, where `.ci/run` installs it. */
const NGINX = "/usr/sbin/nginx";

/** Names the instance that served each response: tests read it to know where a request landed. */
export const UPSTREAM_HEADER = "x-tether-upstream";

export interface Nginx {
  url: string;
  /** What nginx wrote to its error log. */
  errors(): string;
  stop(): Promise<void>;
}

/** Why nginx cannot be used here, or undefined when it can (CI must have it: TETHER_TEST_REQUIRE_NGINX). */
export function nginxMissing(): string | undefined {
  const missing = !existsSync(NGINX)
    ? `${NGINX} is not installed (apt-get install -y nginx)`
    : spawnSync(NGINX, ["-v"]).status !== 0
      ? `${NGINX} -v failed`
      : undefined;
  if (missing && process.env.TETHER_TEST_REQUIRE_NGINX === "1") throw new Error(`nginx is required here (TETHER_TEST_REQUIRE_NGINX=1): ${missing}`);
  return missing;
}

/**
 * The configuration docs/operations.md gives for several instances: round-robin
 * over the instances, responses passed on as they come (no buffering, so
 * each SSE event reaches the client when the instance writes it), long reads
 * for streams that stay quiet while a model thinks, and the client's Host
 * kept, so the sign-in cookie's origin check sees the address people use.
 */
export function nginxConfig(options: { listen: string; upstreams: string[]; dir: string }): string {
  const { dir } = options;
  return `${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  upstream tether {
${options.upstreams.map((address) => `    server ${address};`).join("\n")}
  }
  server {
    listen ${options.listen};
    location / {
      proxy_pass http://tether;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      add_header ${UPSTREAM_HEADER} $upstream_addr always;
    }
  }
}
`;
}

/** Starts nginx in front of the instances (host:port each) on a free loopback port; resolves once it answers. */
export async function startNginx(upstreams: string[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), "tether-nginx-"));
  const port = await freePort();
  writeFileSync(join(dir, "nginx.conf"), nginxConfig({ listen: `127.0.0.1:${port}`, upstreams, dir }));
  const child: ChildProcess = spawn(NGINX, ["-e", join(dir, "error.log"), "-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const errors = () => {
    const log = join(dir, "error.log");
    return existsSync(log) ? `${output}${readFileSync(log, "utf8")}` : output;
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${errors()}`);
    const answered = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (attempt > 100) throw new Error(`nginx did not answer on ${url}:\n${errors()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
