// CHANGELOG.md, embedded at build time so `/changelog.md` works from the compiled binary too.
import changelog from "../../CHANGELOG.md" with { type: "text" };

export const CHANGELOG_MARKDOWN: string = changelog;
