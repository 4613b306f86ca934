/**
 * `toolgate serve --qr` (issue 18): the console's address as a QR code in the terminal, for a
 * phone on the same network. The QR library (uqr) is loaded only here, on first use, so no other
 * command (nor `--version`) reads it. Two terminal rows per line: a module is drawn with the
 * terminal's foreground for light and left blank for dark, which phones read on a dark terminal.
 * A token from the environment is never printed: the code then holds the URL without fragment,
 * and a line says the page asks for the token.
 */
export * as ConsoleQr from "./console-qr.js"

import { ServerToken } from "./token.js"

/** The quiet zone around the code, in modules. */
export const BORDER = 2

export const Messages = {
  address: (url: string) => `toolgate serve: the console, for a phone on this network: ${url}`,
  asksToken: `toolgate serve: the token comes from ${ServerToken.ENV} and is not printed: the console page asks for it`,
  noAddress: "toolgate serve: --qr: this machine has no network address beyond loopback (no non-internal IPv4 address), so there is no code to print",
} as const

/** The code of `url`, as terminal lines. */
export const render = async (url: string): Promise<ReadonlyArray<string>> => {
  const { renderUnicodeCompact } = await import("uqr")
  return renderUnicodeCompact(url, { border: BORDER }).split("\n")
}

/** Everything `--qr` prints, one entry a line: the code, its address, and whether the page asks for the token. */
export const lines = async (address: { readonly url: string | undefined; readonly tokenShown: boolean }): Promise<ReadonlyArray<string>> => {
  if (address.url === undefined) return [Messages.noAddress]
  return [...(await render(address.url)), Messages.address(address.url), ...(address.tokenShown ? [] : [Messages.asksToken])]
}
