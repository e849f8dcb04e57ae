/**
 * Emits help.html, the page every RENT function's @helpurl points at, from docs/functions.md (so the help
 * Excel shows and the reference never disagree), and support.html, the manifest's support and "learn more" page,
 * from docs/troubleshooting.md; renders the help text's placeholders in functions.json from
 * the contract and the add-in's own facts (scripts/functionHelp.ts, which docs/functions.md's arguments are
 * rendered by too); and rewrites the development URLs inside functions.json to the production base URL, as the
 * manifest's are.
 */
const fs = require("fs");
const path = require("path");
const { sources, Compilation } = require("webpack");
const { require: requireTypeScript } = require("tsx/cjs/api");

/** The help text renderer, a TypeScript module (it reads the contract's generated tables), loaded through tsx. */
function functionHelp() {
  return requireTypeScript(
    path.join(__dirname, "functionHelp.ts"),
    path.join(__dirname, "helpPagePlugin.js"),
  );
}

const TITLE = "# Function reference";

/** A document without its title line (the page has a title of its own). */
function withoutTitle(markdown, title) {
  if (!markdown.startsWith(title)) throw new Error(`The document must start with "${title}".`);
  return markdown.slice(title.length);
}

/** The reference without its title line (help.html has a title of its own). */
function functionReference(reference) {
  return withoutTitle(reference, TITLE);
}

/** "RENT.FORECAST" -> "rent-forecast": the anchors the functions' @helpurl tags name. */
function anchorFor(headingText) {
  return headingText
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
}

/** A page of the add-in's own site from markdown: headings get the anchors links name, no script runs. */
async function renderPage(markdown, title) {
  const { Marked } = await import("marked");
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth, text }) {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${anchorFor(text)}">${inner}</h${depth}>\n`;
      },
    },
  });
  const body = await marked.parse(markdown);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; style-src 'self'" />
<title>${title}</title>
<link rel="stylesheet" href="taskpane.css" />
</head>
<body class="help">
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

function renderHelpPage(reference) {
  return renderPage(functionReference(reference), "Rent Market functions");
}

const SUPPORT_TITLE = "# Troubleshooting";

/** support.html: what a cell or the pane says and what to do (docs/troubleshooting.md). */
function renderSupportPage(troubleshooting) {
  return renderPage(withoutTitle(troubleshooting, SUPPORT_TITLE), "Rent Market: troubleshooting");
}

class HelpPagePlugin {
  /** @param {{ reference: string, support: string, devBaseUrl: string, baseUrl?: string }} options */
  constructor(options) {
    this.options = options;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("HelpPagePlugin", (compilation) => {
      compilation.fileDependencies.add(this.options.reference);
      compilation.fileDependencies.add(this.options.support);
      compilation.hooks.processAssets.tapPromise(
        { name: "HelpPagePlugin", stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          const reference = fs.readFileSync(this.options.reference, "utf8");
          compilation.emitAsset("help.html", new sources.RawSource(await renderHelpPage(reference)));
          const troubleshooting = fs.readFileSync(this.options.support, "utf8");
          compilation.emitAsset(
            "support.html",
            new sources.RawSource(await renderSupportPage(troubleshooting)),
          );
          const metadata = compilation.getAsset("functions.json");
          if (metadata) {
            let text = functionHelp().renderMetadataJson(metadata.source.source().toString());
            if (this.options.baseUrl) text = text.replaceAll(this.options.devBaseUrl, this.options.baseUrl);
            compilation.updateAsset("functions.json", new sources.RawSource(text));
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
  FUNCTION_REFERENCE: path.resolve(__dirname, "../docs/functions.md"),
  SUPPORT_PAGE: path.resolve(__dirname, "../docs/troubleshooting.md"),
};
