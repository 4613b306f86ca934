/** Sessions per directory (agent, created, last activity, pending asks); a session's changed files with their diff; unrevert. */
import { useEffect, useState } from "preact/hooks"
import type { Api } from "./api.js"
import { Diff } from "./diff.js"
import { Text } from "./text.js"

export const Sessions = ({ api, directories, version }: { api: Api; directories: ReadonlyArray<string>; version: number }) => {
  const [sessions, setSessions] = useState<ReadonlyArray<any>>([])
  const [open, setOpen] = useState<string | undefined>(undefined)
  const [diff, setDiff] = useState<ReadonlyArray<any> | undefined>(undefined)
  const [note, setNote] = useState<string | undefined>(undefined)
  const [messages, setMessages] = useState<ReadonlyArray<{ messageID: string; paths: ReadonlyArray<string> }>>([])
  const [preview, setPreview] = useState<{ messageID: string; plan: ReadonlyArray<{ path: string; action: string }> } | undefined>(undefined)
  const [done, setDone] = useState<string | undefined>(undefined)
  useEffect(() => {
    void Promise.all(directories.map(async (directory) => ((await api.get(`/api/session?directory=${encodeURIComponent(directory)}`)).data as any[]).map((session) => ({ ...session, directory })))).then((lists) =>
      setSessions([...new Map(lists.flat().map((session) => [session.id, session])).values()]),
    )
  }, [directories.join("\n"), version])
  useEffect(() => {
    if (open === undefined) return setDiff(undefined)
    void api.get(`/api/session/${open}/diff`).then((answer) => setDiff(answer.data), (error: Error) => setNote(error.message))
    void api.get(`/api/session/${open}/message`).then((answer) => setMessages(answer.data), () => setMessages([]))
  }, [open, version])
  const previewOf = (messageID: string) =>
    api.send("POST", `/api/session/${open}/revert`, { messageID, dryRun: true }).then((answer) => { setDone(undefined); setPreview({ messageID, plan: answer.data }) }, (error: Error) => setNote(error.message))
  const revert = (messageID: string) =>
    api.send("POST", `/api/session/${open}/revert`, { messageID }).then((answer) => { setPreview(undefined); setDone(Text.reverted(answer.data.filter((step: { action: string }) => step.action !== "keep").length)) }, (error: Error) => setNote(error.message))
  const unrevert = () =>
    api.send("POST", `/api/session/${open}/unrevert`).then((answer) => { setPreview(undefined); setDone(Text.unreverted(answer.data.filter((step: { action: string }) => step.action !== "keep").length)) }, (error: Error) => setNote(error.message))
  if (sessions.length === 0) return <p class="empty">{Text.sessionsEmpty}</p>
  return (
    <section class="sessions">
      {note === undefined ? null : <p class="error" role="alert">{note}</p>}
      <table>
        <thead><tr><th>Session</th><th>{Text.directory}</th><th>Agent</th><th>Created</th><th>Last activity</th><th>Pending</th></tr></thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id} data-testid="session" class={open === session.id ? "selected" : ""} onClick={() => setOpen(open === session.id ? undefined : session.id)}>
              <td><code>{session.id}</code></td>
              <td>{session.directory}</td>
              <td>{session.agent}</td>
              <td>{session.createdAt === undefined ? "" : new Date(session.createdAt).toLocaleString()}</td>
              <td>{session.lastCallAt === undefined || session.lastCallAt === null ? "" : new Date(session.lastCallAt).toLocaleString()}</td>
              <td>{Text.pendingCount(session.pendingAsks ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {open === undefined || diff === undefined ? null : (
        <div class="changes" data-testid="session-changes">
          <h2>{Text.changedFiles}</h2>
          {diff.length === 0 ? <p>{Text.noChanges}</p> : diff.map((file) => (
            <details key={file.path} open>
              <summary>{file.status} {file.path} (+{file.additions} −{file.deletions})</summary>
              <Diff text={file.patch} />
            </details>
          ))}
          {messages.length === 0 ? null : (
            <div class="messages" data-testid="session-messages">
              <h2>{Text.messages}</h2>
              <ul>
                {messages.map((message) => (
                  <li key={message.messageID} data-testid="session-message">
                    <code>{message.messageID}</code> {message.paths.join(", ")}{" "}
                    <button type="button" onClick={() => previewOf(message.messageID)}>{Text.previewRevert}</button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {preview === undefined ? null : (
            <div class="confirm" data-testid="revert-preview">
              {Text.revertPreview(preview.messageID)}
              <ul>{preview.plan.map((step) => <li key={step.path}>{Text.step(step.action, step.path)}</li>)}</ul>
              <button type="button" class="danger" onClick={() => revert(preview.messageID)}>{Text.doRevert}</button>
              <button type="button" onClick={() => setPreview(undefined)}>{Text.cancel}</button>
            </div>
          )}
          {done === undefined ? null : <p data-testid="revert-done">{done}</p>}
          <button type="button" onClick={unrevert}>{Text.unrevert}</button>
        </div>
      )}
    </section>
  )
}
