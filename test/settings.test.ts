import { describe, expect, it } from "vitest";
import { defaultSettings, parseSettings } from "../src/core/settings";

describe("settings", () => {
  it("missing keys take their defaults", () => {
    expect(parseSettings({}).settings).toEqual(defaultSettings());
    expect(parseSettings(undefined)).toEqual({ settings: defaultSettings() });
  });

  it("an invalid value falls back to its default alone; the other settings are kept", () => {
    const { settings, error } = parseSettings({ memoryRoot: "AI", llm: { timeoutMs: -5, model: "m" }, isolatedZones: ["A", 3] });
    expect(settings.memoryRoot).toBe("AI");
    expect(settings.llm.model).toBe("m");
    expect(settings.llm.timeoutMs).toBe(defaultSettings().llm.timeoutMs);
    expect(settings.isolatedZones).toEqual(["Restricted"]);
    expect(error).toMatch(/"llm\.timeoutMs"/);
    expect(error).toMatch(/"isolatedZones"/);
  });

  it("isolated zones written with slashes are read as meant; one naming no folder resets the list", () => {
    expect(parseSettings({ isolatedZones: ["/Clients/Acme/", "HR\\Payroll", "./Secret", " Vault2//Secret "] }).settings.isolatedZones).toEqual([
      "Clients/Acme",
      "HR/Payroll",
      "Secret",
      "Vault2/Secret",
    ]);
    const bad = parseSettings({ isolatedZones: ["HR", "/"] });
    expect(bad.settings.isolatedZones).toEqual(["Restricted"]);
    expect(bad.error).toMatch(/"isolatedZones": a zone must name a folder/);
  });

  it("something that is not an object gives the defaults with a reason", () => {
    expect(parseSettings("x")).toEqual({ settings: defaultSettings(), error: "settings are not an object" });
    expect(parseSettings([1]).error).toBeDefined();
  });

  it("a base URL with credentials, another scheme or no URL at all is refused with a reason that never repeats it", () => {
    const creds = parseSettings({ llm: { baseUrl: "http://user:secret@127.0.0.1:8080/v1", model: "m" } });
    expect(creds.settings.llm.baseUrl).toBe("");
    expect(creds.settings.llm.model).toBe("m");
    expect(creds.error).toMatch(/"llm\.baseUrl": the base URL has credentials in it .*API key setting/);
    expect(creds.error).not.toMatch(/secret|user:/);
    expect(parseSettings({ llm: { baseUrl: "ftp://127.0.0.1/v1" } }).error).toMatch(/"llm\.baseUrl".*http:\/\/ or https:\/\//);
    expect(parseSettings({ llm: { baseUrl: "localhost 11434" } }).error).toMatch(/"llm\.baseUrl": the base URL is not a URL/);
    for (const ok of ["", "http://localhost:11434/v1", "https://api.openai.com/v1"]) {
      expect(parseSettings({ llm: { baseUrl: ok } })).toEqual({ settings: { ...defaultSettings(), llm: { ...defaultSettings().llm, baseUrl: ok } } });
    }
  });

  it("unknown keys are dropped and no API key is ever part of the settings", () => {
    const { settings } = parseSettings({ apiKey: "sk-secret", llm: { apiKey: "sk-secret" } });
    expect(JSON.stringify(settings)).not.toContain("sk-secret");
  });
});
