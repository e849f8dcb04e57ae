/**
 * Emits help.html, the page every RENT function's @helpurl points at, from the "Function reference" section
 * of README.md (so the help Excel shows and the README never disagree), and rewrites the development URLs
 * inside functions.json to the production base URL, as the manifest's are.
 */
const fs = require("fs");
const path = require("path");
const { sources, Compilation } = require("webpack");

const SECTION_TITLE = "## Function reference";

/** The README section from its heading to the next second-level heading. */
function functionReference(readme) {
  const start = readme.indexOf(SECTION_TITLE);
  if (start < 0) throw new Error(`README.md has no "${SECTION_TITLE}" section for help.html.`);
  const rest = readme.slice(start + SECTION_TITLE.length);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** "RENT.FORECAST" -> "rent-forecast": the anchors the functions' @helpurl tags name. */
function anchorFor(headingText) {
  return headingText
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
}

async function renderHelpPage(readme) {
  const { Marked } = await import("marked");
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth, text }) {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${anchorFor(text)}">${inner}</h${depth}>\n`;
      },
    },
  });
  const body = await marked.parse(functionReference(readme));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; style-src 'self'" />
<title>Rent Market functions</title>
<link rel="stylesheet" href="taskpane.css" />
</head>
<body class="help">
<main>
<h1>Rent Market functions</h1>
${body}
</main>
</body>
</html>
`;
}

class HelpPagePlugin {
  /** @param {{ readme: string, devBaseUrl: string, baseUrl?: string }} options */
  constructor(options) {
    this.options = options;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("HelpPagePlugin", (compilation) => {
      compilation.fileDependencies.add(this.options.readme);
      compilation.hooks.processAssets.tapPromise(
        { name: "HelpPagePlugin", stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          const readme = fs.readFileSync(this.options.readme, "utf8");
          compilation.emitAsset("help.html", new sources.RawSource(await renderHelpPage(readme)));
          const metadata = compilation.getAsset("functions.json");
          if (metadata && this.options.baseUrl) {
            const text = metadata.source.source().toString();
            const rewritten = text.replaceAll(this.options.devBaseUrl, this.options.baseUrl);
            compilation.updateAsset("functions.json", new sources.RawSource(rewritten));
          }
        },
      );
    });
  }
}

module.exports = {
  HelpPagePlugin,
  anchorFor,
  functionReference,
  renderHelpPage,
  README: path.resolve(__dirname, "../README.md"),
};
