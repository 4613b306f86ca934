/** `toolgate serve`, as help and the flag parser see it (cli/spec.ts). */
export * as ServeSpec from "./serve.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "serve",
  summary: "Serve the tools, the gate and its asks over HTTP and SSE to agents and people",
  usage: ["toolgate serve [flags]"],
  description: [
    "One long-running server for many working directories: agents call tools over HTTP, and people",
    "answer the asks from any client (OpenCode's SDK routes, a script). Every route but /health needs",
    "the token it prints (or TOOLGATE_SERVER_TOKEN). It serves the directory it started in and below,",
    "or the roots in the config's server.directories. SIGINT or SIGTERM stops it gracefully.",
  ],
  flags: {
    port: { type: "string", value: "port", description: "The TCP port (0 picks a free one)", default: "4096" },
    hostname: { type: "string", value: "address", description: "The address to bind; beyond loopback it needs TOOLGATE_SERVER_TOKEN", default: "127.0.0.1" },
    qr: { type: "boolean", description: "Also print the console's address as a QR code, for a phone on the same network (needs --hostname beyond loopback)", default: "off" },
    config: Spec.CONFIG,
  },
  examples: [
    { command: "toolgate serve", description: "Serve this directory on http://127.0.0.1:4096" },
    { command: "TOOLGATE_SERVER_TOKEN=$(cat ~/.toolgate-token) toolgate serve --port 8080", description: "Serve with a token of your own on another port" },
    {
      command: "TOOLGATE_SERVER_TOKEN=$(cat ~/.toolgate-token) toolgate serve --hostname 0.0.0.0 --qr",
      description: "Serve on the network and print a QR code of the console for a phone",
    },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
