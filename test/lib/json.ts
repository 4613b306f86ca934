/** JSON helpers for tests: what Node's parser says about a text. */

/** The message `JSON.parse` throws for `text`, or "" when it parses. */
export const jsonError = (text: string): string => {
  try {
    JSON.parse(text)
    return ""
  } catch (error) {
    return (error as Error).message
  }
}
