import { describe, expect, it } from "vitest";
import { csvCell, csvHeader, csvLine } from "./csv";
import { cardLastFour } from "../../cards/card-number";

describe("csvCell", () => {
  it("escapes a text that a spreadsheet would run as a formula (CSV injection)", () => {
    expect(csvCell("=SUM(A1:A9)")).toBe("'=SUM(A1:A9)");
    expect(csvCell("+1 555")).toBe("'+1 555");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("\tindent")).toBe("'\tindent");
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("quotes a field holding a comma, quote or line break and doubles its quotes (RFC 4180)", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("crlf\r\nline")).toBe('"crlf\r\nline"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("keeps unicode as it is", () => {
    expect(csvCell("Zoë Ünicode 東京 🙂")).toBe("Zoë Ünicode 東京 🙂");
    expect(csvCell("Zoë, 東京")).toBe('"Zoë, 東京"');
  });

  it("writes numbers and decimal amounts as numbers, a negative one included; other text in a numeric column is escaped", () => {
    expect(csvCell("-5.00", { numeric: true })).toBe("-5.00");
    expect(csvCell("100.50", { numeric: true })).toBe("100.50");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(12n)).toBe("12");
    expect(csvCell("-5.00")).toBe("'-5.00");
    expect(csvCell("-1+1", { numeric: true })).toBe("'-1+1");
  });

  it("writes null and undefined as empty fields", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });
});

describe("csvHeader and csvLine", () => {
  it("end each line with CRLF", () => {
    const columns = [
      { header: "name", value: (row: { name: string; amount: string }) => row.name },
      { header: "amount", value: (row: { name: string; amount: string }) => row.amount, numeric: true },
    ];
    expect(csvHeader(columns)).toBe("name,amount\r\n");
    expect(csvLine(columns, { name: "=x", amount: "1.00" })).toBe("'=x,1.00\r\n");
  });
});

describe("cardLastFour", () => {
  it("takes the last four digits of a full or masked number, never of one too short to show them", () => {
    expect(cardLastFour("4111 1111 1111 1111")).toBe("1111");
    expect(cardLastFour("411111******0077")).toBe("0077");
    expect(cardLastFour("4111-1111-1111-4242")).toBe("4242");
    expect(cardLastFour("1234567")).toBeNull();
    expect(cardLastFour("411111******11**")).toBeNull();
  });
});
