import { describe, expect, it } from "vitest";
import {
  defaultSettings,
  parseSettings,
  usableSettings,
  type SettingsReset,
} from "../../src/core/settings";

/** The reset that settings which must not validate give (fails the test when they validate). */
function resetOf(raw: unknown): SettingsReset {
  const parsed = parseSettings(raw);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
  return parsed.error;
}

describe("settings", () => {
  it("missing keys take their defaults", () => {
    expect(usableSettings(parseSettings({}))).toEqual(defaultSettings());
    expect(parseSettings(undefined)).toEqual({ ok: true, value: defaultSettings() });
  });

  it("an invalid value falls back to its default alone; the other settings are kept", () => {
    const { settings, message: error } = resetOf({
      memoryRoot: "AI",
      llm: { timeoutMs: -5, model: "m" },
      isolatedZones: ["A", 3],
    });
    expect(settings.memoryRoot).toBe("AI");
    expect(settings.llm.model).toBe("m");
    expect(settings.llm.timeoutMs).toBe(defaultSettings().llm.timeoutMs);
    expect(settings.isolatedZones).toEqual(["Restricted"]);
    expect(error).toMatch(/"llm\.timeoutMs"/);
    expect(error).toMatch(/"isolatedZones"/);
  });

  it("isolated zones written with slashes are read as meant; one naming no folder resets the list", () => {
    expect(
      usableSettings(
        parseSettings({
          isolatedZones: ["/Clients/Acme/", "HR\\Payroll", "./Secret", " Vault2//Secret "],
        }),
      ).isolatedZones,
    ).toEqual(["Clients/Acme", "HR/Payroll", "Secret", "Vault2/Secret"]);
    const bad = resetOf({ isolatedZones: ["HR", "/"] });
    expect(bad.settings.isolatedZones).toEqual(["Restricted"]);
    expect(bad.message).toMatch(/"isolatedZones": a zone must name a folder/);
  });

  it("something that is not an object gives the defaults with a reason", () => {
    expect(parseSettings("x")).toEqual({
      ok: false,
      error: { message: "settings are not an object", settings: defaultSettings() },
    });
    expect(resetOf([1]).settings).toEqual(defaultSettings());
  });

  it("a base URL with credentials, another scheme or no URL at all is refused with a reason that never repeats it", () => {
    const creds = resetOf({ llm: { baseUrl: "http://user:secret@127.0.0.1:8080/v1", model: "m" } });
    expect(creds.settings.llm.baseUrl).toBe("");
    expect(creds.settings.llm.model).toBe("m");
    expect(creds.message).toMatch(
      /"llm\.baseUrl": the base URL has credentials in it .*API key setting/,
    );
    expect(creds.message).not.toMatch(/secret|user:/);
    expect(resetOf({ llm: { baseUrl: "ftp://127.0.0.1/v1" } }).message).toMatch(
      /"llm\.baseUrl".*http:\/\/ or https:\/\//,
    );
    expect(resetOf({ llm: { baseUrl: "localhost 11434" } }).message).toMatch(
      /"llm\.baseUrl": the base URL is not a URL/,
    );
    for (const ok of ["", "http://localhost:11434/v1", "https://api.openai.com/v1"]) {
      expect(parseSettings({ llm: { baseUrl: ok } })).toEqual({
        ok: true,
        value: { ...defaultSettings(), llm: { ...defaultSettings().llm, baseUrl: ok } },
      });
    }
  });

  it("unknown keys are dropped and no API key is ever part of the settings", () => {
    const settings = usableSettings(
      parseSettings({ apiKey: "sk-secret", llm: { apiKey: "sk-secret" } }),
    );
    expect(JSON.stringify(settings)).not.toContain("sk-secret");
  });
});
