import { describe, expect, test } from "vitest";
import { htmlToText, sanitizeHtml, truncateText } from "~/lib/html";

const base = "https://example.com/news/item.html";

describe("sanitizeHtml", () => {
  test.each([
    ["drops a script and its content", `<p>Hi</p><script>alert(1)</script>`, `<p>Hi</p>`],
    ["drops a style block and its content", `<style>p{color:red}</style><p>Hi</p>`, `<p>Hi</p>`],
    ["drops iframes, objects and forms but keeps their text", `<iframe src="https://evil.test"></iframe><object data="x"></object><form><input name="a">Go</form>`, `Go`],
    ["drops event handlers", `<p onclick="steal()">Hi</p><img src="https://a.test/x.png" onerror="steal()">`, `<p>Hi</p><img src="https://a.test/x.png" />`],
    ["drops style and class attributes", `<p style="color:red" class="x" id="y">Hi</p>`, `<p>Hi</p>`],
    ["drops javascript: links but keeps the text", `<a href="javascript:alert(1)">click</a>`, `<a>click</a>`],
    ["drops javascript: links hidden by entities and case", `<a href="JaVa&#115;cript&colon;alert(1)">x</a>`, `<a>x</a>`],
    ["drops javascript: links hidden by a newline", `<a href="java\nscript:alert(1)">x</a>`, `<a>x</a>`],
    ["drops data: images", `<img src="data:image/png;base64,AAAA">`, ``],
    ["drops vbscript: and file: links", `<a href="vbscript:x">a</a><a href="file:///etc/passwd">b</a>`, `<a>a</a><a>b</a>`],
    ["keeps mailto links", `<a href="mailto:tips@example.com">mail</a>`, `<a href="mailto:tips@example.com" rel="noopener noreferrer nofollow">mail</a>`],
    ["marks links noopener noreferrer nofollow, replacing their own rel and target", `<a href="https://a.test/" rel="me" target="_blank">a</a>`, `<a href="https://a.test/" rel="noopener noreferrer nofollow">a</a>`],
    ["resolves relative links against the base URL", `<a href="../other.html">o</a>`, `<a href="https://example.com/other.html" rel="noopener noreferrer nofollow">o</a>`],
    ["resolves relative images against the base URL", `<img src="/img/cat.jpg" alt="cat">`, `<img src="https://example.com/img/cat.jpg" alt="cat" />`],
    ["resolves protocol-relative URLs against the base URL", `<img src="//cdn.test/a.png">`, `<img src="https://cdn.test/a.png" />`],
    ["keeps structure tags", `<h2>T</h2><ul><li>a</li></ul><blockquote>q</blockquote><pre><code>c</code></pre>`, `<h2>T</h2><ul><li>a</li></ul><blockquote>q</blockquote><pre><code>c</code></pre>`],
    ["keeps tables with spans", `<table><tr><td colspan="2" bgcolor="red">x</td></tr></table>`, `<table><tr><td colspan="2">x</td></tr></table>`],
    ["keeps figures", `<figure><img src="https://a.test/i.jpg" alt=""><figcaption>c</figcaption></figure>`, `<figure><img src="https://a.test/i.jpg" alt="" /><figcaption>c</figcaption></figure>`],
    ["escapes stray angle brackets in text", `1 < 2 & 3 > 2`, `1 &lt; 2 &amp; 3 &gt; 2`],
    ["closes unclosed tags", `<p><b>bold`, `<p><b>bold</b></p>`],
    ["drops svg with its script", `<svg><script>alert(1)</script></svg>ok`, `ok`],
  ])("%s", (_name, input, expected) => {
    expect(sanitizeHtml(input, { baseUrl: base })).toBe(expected);
  });

  test("without a base URL, relative links and images are dropped", () => {
    expect(sanitizeHtml(`<a href="/x">x</a><img src="y.png"><a href="https://a.test/">a</a>`)).toBe(
      `<a>x</a><a href="https://a.test/" rel="noopener noreferrer nofollow">a</a>`,
    );
  });

  test("a base URL that is not http(s) is ignored", () => {
    expect(sanitizeHtml(`<a href="/x">x</a>`, { baseUrl: "javascript:alert(1)//" })).toBe(`<a>x</a>`);
  });
});

describe("htmlToText", () => {
  test.each([
    ["drops tags", `<p>Hello <b>world</b></p>`, `Hello world`],
    ["decodes named, numeric and hex entities", `caf&eacute; &amp; &#8220;tea&#x201D; &nbsp;x`, `café & “tea” x`],
    ["decodes legacy entities without a semicolon", `AT&amp;T &copy 2024`, `AT&T © 2024`],
    ["turns block boundaries into new lines", `<p>one</p><p>two</p>three<br>four`, `one\ntwo\nthree\nfour`],
    ["collapses whitespace and trims", `  a \n\t b  <div>   </div>  c `, `a b\nc`],
    ["drops scripts, styles and comments with their content", `a<script>x()</script><style>p{}</style><!-- note -->b`, `ab`],
    ["keeps escaped markup as text", `&lt;b&gt;not bold&lt;/b&gt;`, `<b>not bold</b>`],
    ["keeps a lone less-than sign", `1 < 2`, `1 < 2`],
    ["drops a tag cut off at the end", `text <a href="x`, `text`],
    ["returns an empty string for markup only", `<img src="x.png"><br/>`, ``],
  ])("%s", (_name, input, expected) => {
    expect(htmlToText(input)).toBe(expected);
  });
});

describe("truncateText", () => {
  test.each([
    ["leaves short text alone", "short text", 20, "short text"],
    ["cuts at a word boundary with an ellipsis", "The quick brown fox jumps", 12, "The quick…"],
    ["drops trailing punctuation before the ellipsis", "Hello, world again", 8, "Hello…"],
    ["cuts inside a long word when there is no boundary", "Supercalifragilistic", 6, "Super…"],
    ["never exceeds the limit", "a b c d e f g h", 5, "a b…"],
  ])("%s", (_name, input, max, expected) => {
    const out = truncateText(input, max);
    expect(out).toBe(expected);
    expect(out.length).toBeLessThanOrEqual(max);
  });
});
