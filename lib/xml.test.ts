import { decodeXML } from "entities";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, test } from "vitest";
import { escapeXml } from "./xml";

describe("escaping text for XML", () => {
  test.each([
    [`Cats & <dogs> "quoted" ]]>`, "Cats &amp; &lt;dogs&gt; &quot;quoted&quot; ]]&gt;"],
    ["it's", "it&apos;s"],
    ["bell\u0007 nul\u0000 \uFFFF\uD83D end", "bell nul  end"],
    ["tab\tline\ncr\r 😀 é", "tab&#9;line&#10;cr&#13; 😀 é"],
    ["https://odd.example/feed?a=1&b=<2>", "https://odd.example/feed?a=1&amp;b=&lt;2&gt;"],
    ["😀\uDE00", "😀"],
    ["\uFFFE\uFFFD", "\uFFFD"],
    ["", ""],
  ])("%j is written as %j", (input, expected) => {
    expect(escapeXml(input)).toBe(expected);
  });

  test("text with nothing to change is returned as it is", () => {
    const plain = "https://oddwire.test/story/giant-goat-rescues-the-town-hall-1";
    expect(escapeXml(plain)).toBe(plain);
  });

  test.each([`Tom & Jerry's "<Odd>"\nNews\ttab\r\nend`, "plain", "a < b > c"])(
    "%j reads back as written from an attribute and from an element",
    (text) => {
      const xml = `<r a="${escapeXml(text)}">${escapeXml(text)}</r>`;
      // No raw line break is left for a parser to turn into a space or fold from CRLF to LF.
      expect(xml).not.toMatch(/[\t\n\r]/);
      expect(XMLValidator.validate(xml)).toBe(true);
      const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", trimValues: false, processEntities: false, parseTagValue: false, parseAttributeValue: false });
      const root = (parser.parse(xml) as { r: { a: string; "#text": string } }).r;
      expect(decodeXML(root.a)).toBe(text);
      expect(decodeXML(root["#text"])).toBe(text);
    },
  );
});
