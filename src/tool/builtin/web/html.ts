/**
 * HTML to markdown or visible text, both through `turndown` (which parses with its own bundled
 * DOM, domino, in Node). Removed with everything inside, in both: script, style, noscript,
 * iframe, object, embed, template, and hidden elements: the `hidden` attribute,
 * `aria-hidden="true"` (content the page itself hides from readers) and an inline style with
 * `display: none` or `visibility: hidden`; stylesheets are not evaluated. Markdown uses atx
 * headings, `-` bullets and fenced code. Text is the same walk with every element reduced to its
 * content: blocks become paragraphs, `br` a line break, list items and table rows one line each
 * (cells tab-separated), and nothing is escaped. The converters are built once, on first use.
 */
export * as WebHtml from "./html.js"

import type TurndownService from "turndown"

export const REMOVED_ELEMENTS: ReadonlyArray<string> = ["script", "style", "noscript", "iframe", "object", "embed", "template"]

/** The part of a DOM element the filters read (turndown's parser gives full DOM elements). */
interface Element {
  readonly nodeName: string
  readonly isBlock?: boolean
  getAttribute(name: string): string | null
  hasAttribute(name: string): boolean
}

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i

/** Whether an element is hidden by its own attributes. */
export const isHidden = (element: Element): boolean =>
  element.hasAttribute("hidden") || element.getAttribute("aria-hidden")?.trim().toLowerCase() === "true" || HIDDEN_STYLE.test(element.getAttribute("style") ?? "")

const isRemoved = (element: Element) => REMOVED_ELEMENTS.includes(element.nodeName.toLowerCase()) || isHidden(element)

// Filters and replacements are typed against our own Element: the DOM types turndown's typings name are not in this project's lib.
const filter = (test: (element: Element) => boolean) => test as unknown as TurndownService.FilterFunction
const replacement = (replace: (content: string, element: Element) => string) => replace as unknown as TurndownService.ReplacementFunction

const block = (content: string) => `\n\n${content}\n\n`
const line = (content: string) => `\n${content}\n`

/** The page title is not inline text: it stands on its own. */
const titleRule: TurndownService.Rule = { filter: filter((element) => element.nodeName === "TITLE"), replacement: replacement(block) }

const TEXT_LINES = ["LI", "TR", "DT", "DD"]
const TEXT_CELLS = ["TD", "TH"]

/**
 * Removal as a rule of its own, added last so it is tried first: turndown tries its rules before
 * its `remove` list, so `remove` alone would still render a hidden `<p>` through the paragraph rule.
 */
const removedRule: TurndownService.Rule = { filter: filter(isRemoved), replacement: () => "" }

/** One rule for every element that stays: its content, laid out as lines and paragraphs. */
const textRule: TurndownService.Rule = {
  filter: filter(() => true),
  replacement: replacement((content, element) => {
    if (element.nodeName === "BR") return "\n"
    if (TEXT_CELLS.includes(element.nodeName)) return `${content}\t`
    if (TEXT_LINES.includes(element.nodeName)) return line(content.replace(/\t$/, ""))
    return element.isBlock === true || element.nodeName === "TITLE" ? block(content) : content
  }),
}

type Converters = { readonly markdown: TurndownService; readonly text: TurndownService }

const build = (Turndown: typeof TurndownService): Converters => {
  const markdown = new Turndown({ headingStyle: "atx", bulletListMarker: "-", codeBlockStyle: "fenced" })
  markdown.addRule("title", titleRule).addRule("removed", removedRule)
  const text = new Turndown()
  text.addRule("text", textRule).addRule("removed", removedRule)
  text.escape = (value) => value
  return { markdown, text }
}

/** turndown and its DOM load on the first page converted, not with every run. */
const state: { converters?: Promise<Converters> } = {}
const converters = () => {
  state.converters ??= import("turndown").then((module) => build(module.default))
  return state.converters
}

/**
 * @example await WebHtml.toMarkdown("<h1>Hello</h1><p>world <strong>wide</strong></p>") // "# Hello\n\nworld **wide**"
 */
export const toMarkdown = async (html: string): Promise<string> => (await converters()).markdown.turndown(html)

/**
 * @example await WebHtml.toText("<p>a <b>b</b></p><ul><li>c</li></ul>") // "a b\n\nc"
 */
export const toText = async (html: string): Promise<string> => (await converters()).text.turndown(html)

/** Both converters ready, so a caller can time a conversion without the first load. */
export const load = async (): Promise<void> => {
  await converters()
}
