/** A unified diff, one line an element, coloured by its first character (text only: never HTML). */
export const Diff = ({ text }: { readonly text: string }) => (
  <pre class="diff" data-testid="diff">
    {text.split("\n").map((line, index) => (
      <span key={index} class={line.startsWith("+") && !line.startsWith("+++") ? "added" : line.startsWith("-") && !line.startsWith("---") ? "removed" : line.startsWith("@@") ? "hunk" : ""}>
        {line}
        {"\n"}
      </span>
    ))}
  </pre>
)
