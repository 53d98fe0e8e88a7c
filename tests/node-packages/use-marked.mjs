// marked: markdown to HTML for headings, lists, code, links, tables.
import { marked } from 'marked';
const md = `# Title

Some *emphasis*, **strong** and \`code\`.

- one
- two
  1. nested

\`\`\`js
const x = 1;
\`\`\`

| a | b |
|---|---|
| 1 | 2 |

[link](https://example.com "t") and <b>html</b>
`;
process.stdout.write(marked.parse(md));
console.log(marked.parseInline('inline **bold**'));
console.log(JSON.stringify(marked.lexer('# h\n\ntext').map((t) => t.type)));
