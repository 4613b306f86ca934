/** The explain box: a tool and its input (or a bash command), and every request it would make with its decision. */
import { useEffect, useState } from "preact/hooks"
import type { Api } from "./api.js"
import { Text } from "./text.js"

/** A rule's source in a few words: where it was written. */
const sourceText = (source: any): string =>
  source === undefined ? "" : [source.kind, source.path ?? source.file ?? source.sessionID ?? source.id ?? source.agent, source.index === undefined ? undefined : `[${source.index}]`].filter((part) => part !== undefined).join(" ")

interface Listed {
  readonly agent: string
  readonly agents: ReadonlyArray<string>
  readonly rules: ReadonlyArray<{ index: number; action: string; resource: string; effect: string; source: string; saved: boolean }>
  readonly findings: ReadonlyArray<{ kind: string; message: string; fix: string; rules: ReadonlyArray<number> }>
}

/** The agent's rules in evaluation order, each with the audit's findings about it beside it. */
const Effective = ({ listed, onAgent }: { listed: Listed; onAgent: (agent: string) => void }) => (
  <div class="effective" data-testid="effective-rules">
    <h2>{Text.rulesTitle}</h2>
    <label>Agent<select data-testid="rules-agent" value={listed.agent} onChange={(event) => onAgent(event.currentTarget.value)}>{listed.agents.map((agent) => <option key={agent} value={agent}>{agent}</option>)}</select></label>
    <table>
      <thead><tr><th>#</th><th>Action</th><th>Pattern</th><th>Effect</th><th>Source</th><th>Findings</th></tr></thead>
      <tbody>
        {listed.rules.map((rule) => (
          <tr key={rule.index} data-testid="rule" class={`effect-${rule.effect}`}>
            <td>{rule.index}</td>
            <td>{rule.action}</td>
            <td><code>{rule.resource}</code></td>
            <td>{rule.effect}</td>
            <td>{rule.saved ? Text.savedRule : rule.source}</td>
            <td>{listed.findings.filter((finding) => finding.rules.includes(rule.index)).map((finding) => <p key={finding.message} class="finding" data-testid="rule-finding">{finding.kind}: {finding.message} ({finding.fix})</p>)}</td>
          </tr>
        ))}
      </tbody>
    </table>
    <h2>{Text.findings}</h2>
    {listed.findings.length === 0 ? <p>{Text.noFindings}</p> : <ul>{listed.findings.map((finding) => <li key={finding.message} data-testid="finding">{finding.kind}: {finding.message}</li>)}</ul>}
  </div>
)

export const Rules = ({ api, directories }: { api: Api; directories: ReadonlyArray<string> }) => {
  const [directory, setDirectory] = useState(directories[0] ?? "")
  const [error, setError] = useState<string | undefined>(undefined)
  const [agent, setAgent] = useState<string | undefined>(undefined)
  const [listed, setListed] = useState<Listed | undefined>(undefined)
  useEffect(() => {
    const where = directory || directories[0]
    if (where === undefined) return
    const query = new URLSearchParams({ directory: where, ...(agent === undefined ? {} : { agent }) })
    void api.get(`/api/rules?${query}`).then(setListed, (failure: Error) => setError(failure.message))
  }, [directory, directories.join("\n"), agent])
  const [tool, setTool] = useState("bash")
  const [input, setInput] = useState("")
  const [result, setResult] = useState<any>(undefined)
  const explain = async () => {
    const trimmed = input.trim()
    const parsed = (() => {
      if (trimmed.startsWith("{")) return JSON.parse(trimmed)
      return tool === "bash" ? { command: trimmed, description: "explain" } : { path: trimmed }
    })()
    setError(undefined)
    await api.send("POST", "/api/permission/explain", { directory: directory || directories[0], tool, input: parsed, ...(agent === undefined ? {} : { agent }) }).then(setResult, (failure: Error) => { setResult(undefined); setError(failure.message) })
  }
  return (
    <section class="rules">
      <h2>{Text.explainTitle}</h2>
      <form class="explain" onSubmit={(event) => { event.preventDefault(); void explain().catch((failure: Error) => setError(failure.message)) }}>
        <label>{Text.directory}<select value={directory} onChange={(event) => setDirectory(event.currentTarget.value)}>{directories.map((item) => <option key={item} value={item}>{item}</option>)}</select></label>
        <label>{Text.explainTool}<input data-testid="explain-tool" value={tool} onInput={(event) => setTool(event.currentTarget.value)} /></label>
        <label>{Text.explainInput}<textarea data-testid="explain-input" value={input} onInput={(event) => setInput(event.currentTarget.value)} /></label>
        <button type="submit" class="primary">{Text.explainButton}</button>
      </form>
      {error === undefined ? null : <p class="error" role="alert">{error}</p>}
      {result === undefined ? null : (
        <div data-testid="explain-result">
          <p>
            <strong data-testid="explain-effect">{result.effect}</strong> ({result.agent})
          </p>
          {result.requests.length === 0 ? <p>{Text.explainNone}</p> : (
            <table>
              <thead><tr><th>Action</th><th>Resources</th><th>Decision</th><th>Rules</th></tr></thead>
              <tbody>
                {result.requests.map((request: any, index: number) => (
                  <tr key={index} data-testid="explain-request" class={`effect-${request.effect}`}>
                    <td>{request.action}</td>
                    <td><code>{(request.resources ?? []).join(", ")}</code></td>
                    <td>{request.effect}</td>
                    <td>{(request.rules ?? []).map((matched: any) => Text.matched(matched.resource, matched.rule.action, matched.rule.resource, matched.rule.effect, sourceText(matched.rule.source))).join("; ") || Text.noRule}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      {listed === undefined ? null : <Effective listed={listed} onAgent={setAgent} />}
    </section>
  )
}
