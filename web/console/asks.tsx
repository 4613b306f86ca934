/**
 * The pending asks and questions of every directory, live. The selected ask answers to the keys
 * o (once), s (this session), a (always: shows what it saves first), r (reject), f (reject with
 * feedback); arrows move the selection. A reject declines the session's other pending asks too,
 * and the card says which before it is pressed.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks"
import type { Api } from "./api.js"
import { Effects, Saves, Why } from "./ask-card.js"
import type { Ask, QuestionAsk } from "./store.js"
import { Text } from "./text.js"

type Mode = { readonly kind: "idle" } | { readonly kind: "always" } | { readonly kind: "feedback" }

const reply = (api: Api, ask: Ask, body: Record<string, unknown>) => api.send("POST", `/api/session/${ask.sessionID}/permission/${ask.id}/reply`, body)

/** What a card does with a key the list's one listener passes it (the selected card's). */
type KeyHandler = (event: KeyboardEvent) => void

const AskCard = ({ api, ask, others, selected, onSelect, onError, register }: { api: Api; ask: Ask; others: ReadonlyArray<Ask>; selected: boolean; onSelect: () => void; onError: (message: string) => void; register: (id: string, handler: KeyHandler) => void }) => {
  const [mode, setMode] = useState<Mode>({ kind: "idle" })
  const [feedback, setFeedback] = useState("")
  const card = useRef<HTMLElement>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  const answer = (body: Record<string, unknown>) => reply(api, ask, body).catch((error: Error) => onError(error.message))
  const act = (key: string) => {
    if (key === "o") return answer({ reply: "once" })
    if (key === "s") return answer({ reply: "always", scope: "session" })
    if (key === "a") return setMode({ kind: "always" })
    if (key === "r") return answer({ reply: "reject" })
    if (key === "f") return setMode({ kind: "feedback" })
    return undefined
  }
  useEffect(() => {
    if (selected) card.current?.scrollIntoView({ block: "nearest" })
  }, [selected])
  // Focused as the box is committed, before the browser handles the next key: an effect runs after
  // paint, and the first letters typed right after f went nowhere.
  useLayoutEffect(() => {
    if (mode.kind === "feedback") input.current?.focus()
  }, [mode.kind])
  // Registered while rendering, not in an effect: a key pressed as soon as the card shows is not lost.
  register(ask.id, (event) => {
    if (mode.kind === "always" && event.key === "Enter") return void answer({ reply: "always", scope: "project" })
    if (event.key === "Escape") return setMode({ kind: "idle" })
    // A key that reaches the list while the box is open belongs in the box: focusing it now sends
    // this key's character there.
    if (mode.kind === "feedback") return void input.current?.focus()
    if (["o", "s", "a", "r", "f"].includes(event.key)) {
      event.preventDefault()
      void act(event.key)
    }
  })
  return (
    <article ref={card} class={`ask${selected ? " selected" : ""}`} data-testid="ask" data-id={ask.id} onClick={onSelect}>
      <header>
        <strong data-testid="ask-action">{ask.action}</strong> <span class="resources" data-testid="ask-resources">{ask.resources.join(", ")}</span>
        <small class="where">{ask.directory} · {ask.sessionID}</small>
      </header>
      <Why ask={ask} />
      <Effects ask={ask} />
      <Saves intro={Text.sessionSaves} patterns={ask.save} allows={ask.allows.session} />
      {others.length === 0 ? null : (
        <div class="cascade" data-testid="cascade">
          {Text.cascade(others.length)}
          <ul>{others.map((other) => <li key={other.id}>{other.action} {other.resources.join(", ")}</li>)}</ul>
        </div>
      )}
      {mode.kind === "always" ? (
        <div class="confirm" data-testid="always-confirm">
          <Saves intro={Text.alwaysSaves} patterns={ask.save} allows={ask.allows.project} />
          <button type="button" class="primary" onClick={() => answer({ reply: "always", scope: "project" })}>{Text.confirmAlways}</button>
          <button type="button" onClick={() => setMode({ kind: "idle" })}>{Text.cancel}</button>
        </div>
      ) : null}
      {mode.kind === "feedback" ? (
        <form class="feedback" onSubmit={(event) => { event.preventDefault(); void answer({ reply: "reject", message: feedback }) }}>
          <label>
            {Text.feedbackLabel}
            <textarea ref={input} value={feedback} onInput={(event) => setFeedback(event.currentTarget.value)} onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); void answer({ reply: "reject", message: feedback }) }
              if (event.key === "Escape") setMode({ kind: "idle" })
            }} />
          </label>
          <button type="submit" class="danger">{Text.sendFeedback}</button>
        </form>
      ) : null}
      <footer class="answers">
        <button type="button" onClick={() => act("o")}>{Text.answers.once} <kbd>o</kbd></button>
        <button type="button" onClick={() => act("s")}>{Text.answers.session} <kbd>s</kbd></button>
        <button type="button" onClick={() => act("a")}>{Text.answers.always} <kbd>a</kbd></button>
        <button type="button" class="danger" onClick={() => act("r")}>{Text.answers.reject} <kbd>r</kbd></button>
        <button type="button" class="danger" onClick={() => act("f")}>{Text.answers.feedback} <kbd>f</kbd></button>
      </footer>
    </article>
  )
}

const QuestionCard = ({ api, question, onError }: { api: Api; question: QuestionAsk; onError: (message: string) => void }) => {
  const [chosen, setChosen] = useState<ReadonlyArray<ReadonlyArray<string>>>(question.questions.map(() => []))
  const toggle = (index: number, label: string, multiple: boolean) =>
    setChosen(chosen.map((list, at) => (at !== index ? list : multiple ? (list.includes(label) ? list.filter((item) => item !== label) : [...list, label]) : [label])))
  const base = `/api/session/${question.sessionID}/question/${question.id}`
  return (
    <article class="ask question" data-testid="question" data-id={question.id}>
      {question.questions.map((item, index) => (
        <fieldset key={index}>
          <legend>{Text.question}: {item.header}</legend>
          <p>{item.question}</p>
          {item.options.map((option) => (
            <label key={option.label} class="option">
              <input type={item.multiple === true ? "checkbox" : "radio"} name={`${question.id}-${index}`} checked={chosen[index]?.includes(option.label) ?? false} onChange={() => toggle(index, option.label, item.multiple === true)} />
              {option.label} {option.description === undefined ? null : <small>{option.description}</small>}
            </label>
          ))}
        </fieldset>
      ))}
      <footer class="answers">
        <button type="button" class="primary" onClick={() => api.send("POST", `${base}/reply`, { answers: chosen }).catch((error: Error) => onError(error.message))}>{Text.answerQuestion}</button>
        <button type="button" onClick={() => api.send("POST", `${base}/reject`, {}).catch((error: Error) => onError(error.message))}>{Text.dismissQuestion}</button>
      </footer>
    </article>
  )
}

export const Asks = ({ api, asks, questions }: { api: Api; asks: ReadonlyArray<Ask>; questions: ReadonlyArray<QuestionAsk> }) => {
  const [selected, setSelected] = useState(0)
  const [error, setError] = useState<string | undefined>(undefined)
  const index = Math.min(selected, Math.max(0, asks.length - 1))
  // One listener for the whole list, attached once when the view opens (before any ask arrives);
  // it reads the current selection and the cards' handlers from refs.
  const handlers = useRef(new Map<string, KeyHandler>())
  const current = useRef({ index, ids: [] as ReadonlyArray<string> })
  current.current = { index, ids: asks.map((ask) => ask.id) }
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return
      const { index: at, ids } = current.current
      if (event.key === "ArrowDown") { event.preventDefault(); return setSelected(Math.min(at + 1, ids.length - 1)) }
      if (event.key === "ArrowUp") { event.preventDefault(); return setSelected(Math.max(at - 1, 0)) }
      const id = ids[at]
      if (id !== undefined) handlers.current.get(id)?.(event)
    }
    addEventListener("keydown", onKey)
    return () => removeEventListener("keydown", onKey)
  }, [])
  const register = (id: string, handler: KeyHandler) => void handlers.current.set(id, handler)
  if (asks.length === 0 && questions.length === 0) return <p class="empty" data-testid="no-asks">{Text.noAsks}</p>
  return (
    <section class="asks">
      {error === undefined ? null : <p class="error" role="alert">{error}</p>}
      <p class="keys">{Text.keys}</p>
      {asks.map((ask, at) => (
        <AskCard key={ask.id} api={api} ask={ask} selected={at === index} onSelect={() => setSelected(at)} onError={setError} register={register}
          others={asks.filter((other) => other.sessionID === ask.sessionID && other.id !== ask.id)} />
      ))}
      {questions.map((question) => <QuestionCard key={question.id} api={api} question={question} onError={setError} />)}
    </section>
  )
}
