/** Every decision with its rule and source, filtered by directory, session, tool, effect and time; a row opens the call behind it (input and outcome) and the record. */
import { useEffect, useState } from "preact/hooks"
import type { Api } from "./api.js"
import { Text } from "./text.js"

const EFFECTS = ["allow", "ask", "deny"] as const

export const Audit = ({ api, directories, version }: { api: Api; directories: ReadonlyArray<string>; version: number }) => {
  const [directory, setDirectory] = useState(directories[0] ?? "")
  const [session, setSession] = useState("")
  const [tool, setTool] = useState("")
  const [effect, setEffect] = useState("")
  const [since, setSince] = useState("")
  const [records, setRecords] = useState<ReadonlyArray<any>>([])
  const [open, setOpen] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (directory === "" && directories[0] !== undefined) setDirectory(directories[0])
  }, [directories.join("\n")])
  useEffect(() => {
    if (directory === "") return
    const query = new URLSearchParams({ directory, ...(session === "" ? {} : { session }), ...(since === "" ? {} : { since: String(Date.parse(since)) }) })
    void api.get(`/api/audit?${query}`).then((answer) => setRecords([...answer.data].reverse()), () => setRecords([]))
  }, [directory, session, since, version])
  const shown = records.filter((record) => (tool === "" || record.action === tool) && (effect === "" || record.effect === effect))
  const actions = [...new Set(records.map((record) => record.action as string))].sort()
  return (
    <section class="audit">
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>{Text.directory}<select data-testid="audit-directory" value={directory} onChange={(event) => setDirectory(event.currentTarget.value)}>{directories.map((item) => <option key={item} value={item}>{item}</option>)}</select></label>
        <label>{Text.filters.session}<input data-testid="audit-session" value={session} onChange={(event) => setSession(event.currentTarget.value)} /></label>
        <label>{Text.filters.tool}<select data-testid="audit-tool" value={tool} onChange={(event) => setTool(event.currentTarget.value)}><option value="">{Text.filters.any}</option>{actions.map((item) => <option key={item} value={item}>{item}</option>)}</select></label>
        <label>{Text.filters.effect}<select data-testid="audit-effect" value={effect} onChange={(event) => setEffect(event.currentTarget.value)}><option value="">{Text.filters.any}</option>{EFFECTS.map((item) => <option key={item} value={item}>{item}</option>)}</select></label>
        <label>{Text.filters.since}<input type="datetime-local" data-testid="audit-since" value={since} onChange={(event) => setSince(event.currentTarget.value)} /></label>
      </form>
      {shown.length === 0 ? <p class="empty">{Text.auditEmpty}</p> : (
        <table>
          <thead><tr><th>When</th><th>Session</th><th>Action</th><th>Resources</th><th>Effect</th><th>Rule</th><th>Reply</th></tr></thead>
          <tbody>
            {shown.map((record) => [
              <tr key={record.id} data-testid="audit-row" class={`effect-${record.effect}`} onClick={() => setOpen(open === record.id ? undefined : record.id)}>
                <td>{new Date(record.at).toLocaleString()}</td>
                <td>{record.sessionID ?? ""}</td>
                <td>{record.action}</td>
                <td><code>{(record.resources ?? []).join(", ")}</code></td>
                <td>{record.effect}</td>
                <td>{(record.rules ?? []).map((rule: any) => `${rule.action} ${rule.resource} ${rule.effect} (${rule.source?.kind ?? ""})`).join("; ") || Text.noRule}</td>
                <td>{record.reply ?? ""}</td>
              </tr>,
              open === record.id ? <tr key={`${record.id}-open`} class="detail"><td colSpan={7}><CallDetail api={api} record={record} /></td></tr> : null,
            ])}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** The call a decision was for, fetched when its row opens: what it was given and what the model read; then the record itself. */
const CallDetail = ({ api, record }: { api: Api; record: any }) => {
  const [call, setCall] = useState<any>(undefined)
  const [missing, setMissing] = useState(false)
  useEffect(() => {
    if (record.sessionID === undefined || record.toolCallID === undefined) return setMissing(true)
    void api.get(`/api/session/${encodeURIComponent(record.sessionID)}/call/${encodeURIComponent(record.toolCallID)}`).then((answer) => setCall(answer.data), () => setMissing(true))
  }, [record.id])
  return (
    <div class="call-detail">
      {call === undefined ? (missing ? <p data-testid="call-none">{Text.callNone}</p> : null) : (
        <div data-testid="call">
          <h4>{Text.callInput}: {call.tool}</h4>
          <pre data-testid="call-input">{JSON.stringify(call.input, null, 2)}</pre>
          <h4 data-testid="call-kind">{Text.callOutcome(call.kind)}</h4>
          <pre data-testid="call-text">{call.text}</pre>
        </div>
      )}
      <h4>{Text.callDecision}</h4>
      <pre data-testid="audit-detail">{JSON.stringify(record, null, 2)}</pre>
    </div>
  )
}
