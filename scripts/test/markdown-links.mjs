// Finds the relative links and images of Markdown files that do not resolve, as GitHub would
// render them: the target must be a file (or a folder of files) the repository holds, and a
// #fragment into a Markdown file must name one of its headings (GitHub's slugs, via
// github-slugger). External links (any scheme: http, https, mailto…) are not fetched.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: true });

/** A link target with a scheme (https:, mailto:…) or protocol-relative: not checked. */
const external = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/** href/src attributes of raw HTML (<a href>, <img src>) inside Markdown. */
const htmlTarget = /<(?:a|img)\b[^>]*?\s(?:href|src)\s*=\s*["']([^"']*)["']/gi;
/** Explicit anchors of raw HTML (<a name="x">, id="x"). */
const htmlAnchor = /<[a-z]+\b[^>]*?\s(?:name|id)\s*=\s*["']([^"']+)["']/gi;

/**
 * Every link and image target of a Markdown text, with the 1-based line it is written on.
 * Inline and reference-style links alike (markdown-it resolves the references).
 * @param {string} text
 * @returns {{ target: string, line: number }[]}
 */
export function linksOf(text) {
  const found = [];
  let blockLine = 0;
  for (const token of markdown.parse(text, {})) {
    if (token.map) blockLine = token.map[0];
    if (token.type === 'html_block') {
      for (const [, target] of token.content.matchAll(htmlTarget)) {
        found.push({ target, line: blockLine + 1 });
      }
    }
    if (token.type !== 'inline') continue;
    let line = blockLine;
    for (const child of token.children ?? []) {
      if (child.type === 'softbreak' || child.type === 'hardbreak') line += 1;
      const target =
        child.type === 'link_open'
          ? child.attrGet('href')
          : child.type === 'image'
            ? child.attrGet('src')
            : undefined;
      if (target !== undefined && target !== null) found.push({ target, line: line + 1 });
      if (child.type === 'html_inline') {
        for (const [, html] of child.content.matchAll(htmlTarget)) {
          found.push({ target: html, line: line + 1 });
        }
      }
    }
  }
  return found;
}

/** The plain text of a heading's inline token, as GitHub slugs it. */
function headingText(inline) {
  return (inline.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

/**
 * The #fragments a Markdown text offers: its headings' GitHub slugs (a repeated heading gets
 * -1, -2…) and explicit HTML anchors.
 * @param {string} text
 * @returns {Set<string>}
 */
export function anchorsOf(text) {
  const slugger = new GithubSlugger();
  const anchors = new Set();
  const tokens = markdown.parse(text, {});
  tokens.forEach((token, i) => {
    const inline = tokens[i + 1];
    if (token.type === 'heading_open' && inline) anchors.add(slugger.slug(headingText(inline)));
  });
  for (const [, anchor] of text.matchAll(htmlAnchor)) anchors.add(anchor);
  return anchors;
}

/**
 * The broken relative links of `files`.
 * @param {object} repository
 * @param {string} repository.root Its folder.
 * @param {string[]} repository.files Every file it holds, relative to root, `/`-separated.
 * @param {string[]} repository.markdown The Markdown files to check, relative to root.
 * @returns {Promise<string[]>} One `file:line: target: why` per broken link.
 */
export async function brokenLinks({ root, files, markdown: markdownFiles }) {
  const held = new Set(files);
  const folders = new Set(files.flatMap((file) => parentsOf(file)));
  const texts = new Map();
  const read = async (file) => {
    if (!texts.has(file)) texts.set(file, await readFile(path.join(root, file), 'utf8'));
    return texts.get(file);
  };
  const broken = [];
  for (const file of markdownFiles) {
    for (const { target, line } of linksOf(await read(file))) {
      if (external.test(target)) continue;
      const why = await problemOf(file, target);
      if (why) broken.push(`${file}:${line}: ${target}: ${why}`);
    }
  }
  return broken;

  async function problemOf(file, target) {
    const hash = target.indexOf('#');
    const linkPath = decode((hash >= 0 ? target.slice(0, hash) : target).replace(/\?.*/, ''));
    const fragment = hash >= 0 ? decode(target.slice(hash + 1)) : '';
    const resolved = linkPath.startsWith('/')
      ? path.posix.normalize(linkPath.slice(1))
      : path.posix.normalize(path.posix.join(path.posix.dirname(file), linkPath));
    const into = linkPath === '' ? file : resolved.replace(/\/$/, '');
    if (into.startsWith('..')) return 'points outside the repository';
    if (!held.has(into) && !folders.has(into)) return 'no such file in the repository';
    if (fragment === '' || !into.endsWith('.md') || !held.has(into)) return undefined;
    if (!anchorsOf(await read(into)).has(fragment)) return `no heading #${fragment} in ${into}`;
    return undefined;
  }
}

/** `a/b/c.md` → ['a', 'a/b']; the repository root is '.'. */
function parentsOf(file) {
  const parts = file.split('/').slice(0, -1);
  return ['.', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
