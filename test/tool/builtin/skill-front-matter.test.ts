import { describe, expect, it } from "@effect/vitest"
import { SkillFrontMatter } from "../../../src/tool/builtin/skill/front-matter.js"

const cases: ReadonlyArray<{ readonly name: string; readonly text: string; readonly parsed: SkillFrontMatter.Parsed | SkillFrontMatter.Problem }> = [
  { name: "reads name and description, ignoring other keys", text: "---\nname: pdf\ndescription: Fill forms\nlicense: MIT\n---\n# PDF\n", parsed: { name: "pdf", description: "Fill forms", body: "# PDF\n" } },
  { name: "accepts a byte-order mark and CRLF line ends", text: "\uFEFF---\r\nname: pdf\r\n---\r\nBody\r\n", parsed: { name: "pdf", body: "Body\n" } },
  { name: "takes a file without a first fence line as all body", text: "# Title\n---\nname: no\n", parsed: { body: "# Title\n---\nname: no\n" } },
  { name: "accepts an empty front matter", text: "---\n---\nBody", parsed: { body: "Body" } },
  { name: "places a YAML error in the whole file", text: "---\nname: x\ndescription: 'open\n---\n", parsed: { line: 3, column: 19, detail: "Missing closing 'quote" } },
  { name: "refuses a front matter that is not keys and values", text: "---\n- a\n---\n", parsed: { line: 2, column: 1, detail: SkillFrontMatter.Messages.notMapping } },
  { name: "refuses a name that is not text, at its value", text: "---\ndescription: ok\nname: 12\n---\n", parsed: { line: 3, column: 7, detail: SkillFrontMatter.Messages.notString("name") } },
  { name: "does not expand an alias", text: "---\nbase: &b text\nname: *b\n---\n", parsed: { line: 3, column: 7, detail: SkillFrontMatter.Messages.notString("name") } },
  {
    name: "refuses a front matter longer than the limit before parsing it (the YAML parser is quadratic in keys)",
    text: `---\nname: big\nx: {${Array.from({ length: 5_000 }, (_, i) => `k${i}: ${i}`).join(", ")}}\n---\n`,
    parsed: { line: 2, column: 1, detail: SkillFrontMatter.Messages.tooLong },
  },
  { name: "refuses a front matter that is never closed", text: "---\nname: x\n", parsed: { line: 1, column: 1, detail: SkillFrontMatter.Messages.unclosed } },
]

describe("SkillFrontMatter", () => {
  for (const c of cases) it(c.name, () => expect(SkillFrontMatter.parse(c.text)).toEqual(c.parsed))
})
