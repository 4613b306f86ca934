/**
 * The address of the web console (issue 18): the server's URL with the token in the fragment,
 * which browsers never send to the server (no log, proxy or Referer sees it). The page reads it,
 * keeps it in `sessionStorage` and removes it from the address bar. A token that came from the
 * environment is never printed, so its console URL has no fragment and the page asks for it.
 */
export * as ConsoleUrl from "./console-url.js"

/** The fragment's key: `#token=<token>`. */
export const FRAGMENT_KEY = "token"

/**
 * @example ConsoleUrl.of("http://127.0.0.1:4096", "abc") // "http://127.0.0.1:4096/#token=abc"
 */
export const of = (url: string, token?: string): string => (token === undefined ? `${url}/` : `${url}/#${FRAGMENT_KEY}=${encodeURIComponent(token)}`)
