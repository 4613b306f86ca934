/** Sample business questions shared by the Question service, tool and CLI tests. */
import type { Question } from "../../src/question.js"

export const DATABASE: Question.Info = {
  question: "Which database should the service use?",
  header: "Database",
  options: [
    { label: "Postgres", description: "Recommended: the team runs it already" },
    { label: "SQLite", description: "One file, no server" },
  ],
}

export const FEATURES: Question.Info = {
  question: "Which features ship first?",
  header: "Features",
  options: [
    { label: "Search", description: "Full-text search" },
    { label: "Export", description: "CSV export" },
  ],
  multiple: true,
}
