// The statement rule (src/core/extraction/statements.ts; docs/contradictions.md, "The rule"):
// restatement, change or separate fact from the statement's parts, English and Chinese; other
// languages keep the rule from before. The labelled pairs of bench/data/fact-pairs.jsonl are
// measured by `npm run eval:facts`; these are the cases each part of the rule is there for.
import { describe, expect, it } from "vitest";
import {
  compareStatements,
  legacyOutcome,
  statementLanguage,
  statementParts,
} from "../../../src/core/extraction/statements";

const outcome = (older: string, newer: string) => compareStatements(newer, older);

describe("a change: the same subject, another value or the opposite", () => {
  it.each([
    ["we deploy on Fridays", "we will not deploy on Fridays any more", "polarity"],
    ["we deploy on Fridays", "deploys are no longer allowed on Fridays", "polarity"],
    ["we use feature branches", "we stopped using feature branches", "polarity"],
    ["我们周五部署", "我们周五不再部署了", "polarity"],
    ["周五可以发版", "周五别发版", "polarity"],
    ["每周一上午开周会", "周会取消了", "polarity"],
    ["the API rate limit is 100 per second", "the rate limit changed from 100 to 200/s", "value"],
    ["standup is at 9:30", "standup moved to 10:00", "value"],
    ["the design sync is at 3pm", "the design sync is at 4pm", "value"],
    ["Dana owns the billing service", "Priya owns the billing service now", "value"],
    ["the new-checkout flag is on in prod", "the new-checkout flag is off in prod", "value"],
    ["周会定在周三下午三点", "周会改为周四下午三点", "value"],
    ["数据库用的是 MySQL", "数据库改成 PostgreSQL 了", "value"],
    ["值班改成两周一轮", "值班改成一周一轮", "value"],
  ])("%s → %s", (older, newer, reason) => {
    expect(outcome(older, newer)).toEqual({ outcome: "change", reason });
  });

  it("from X to Y: the old value named again is not a value of the new statement", () => {
    expect(statementParts("move the sync from Monday to Friday")).toMatchObject({
      values: ["fri"],
      fromValues: ["mon"],
      marker: true,
    });
    expect(
      outcome("move the sync from Monday to Friday", "move the sync from Friday to Monday"),
    ).toEqual({ outcome: "change", reason: "value" });
    expect(outcome("把站会从周一改到周五", "把站会从周五改到周一").outcome).toBe("change");
  });
});

describe("a separate fact: another identifier, qualifier or subject", () => {
  it.each([
    ["Q3 revenue was 1.2M", "Q4 revenue was 1.5M"],
    ["invoice 1042 was paid", "invoice 1043 was paid"],
    ["ticket PROJ-101 is blocked", "ticket PROJ-202 is blocked"],
    ["staging runs 2 replicas", "prod runs 6 replicas"],
    ["the Berlin office closes at 18:00", "the Munich office closes at 17:00"],
    ["the Monday standup is at 9:30", "the Thursday standup is at 10:00"],
    ["Dana is on call this week", "Dana is on call next week"],
    ["customer 1200 placed order 3400", "customer 3400 placed order 1200"],
    ["we deploy on Fridays", "we deploy the docs site on Fridays"],
    ["第三季度收入 120 万", "第四季度收入 150 万"],
    ["发票 1042 已付款", "发票 1043 已付款"],
    ["测试环境有 2 个副本", "生产环境有 6 个副本"],
    ["北京办公室 18 点下班", "上海办公室 17 点下班"],
    ["alpha 接口的速率限制为每秒 100 次", "bravo 接口的速率限制为每秒 300 次"],
  ])("%s / %s", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "separate" });
  });

  it("identifiers are read as such", () => {
    expect(statementParts("ticket PROJ-101 is blocked").ids).toEqual(["proj-101"]);
    expect(statementParts("invoice 1042 was paid").ids).toEqual(["invoice 1042"]);
    expect(statementParts("Q3 revenue was 1.2M")).toMatchObject({ ids: ["q3"], values: ["1.2m"] });
    expect(statementParts("发票 1042 已付款").ids).toEqual(["1042"]);
    expect(statementParts("第三季度收入 120 万")).toMatchObject({ ids: ["q3"], values: ["120"] });
  });
});

describe("an owner: the thing owned is the subject, in either order", () => {
  it.each([
    ["张三负责支付模块", "支付模块改由李四负责"],
    ["支付模块由张三负责", "支付模块现在由李四负责"],
  ])("%s → %s: a change", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "change", reason: "value" });
  });

  it("the same owner said the other way round is a restatement, another thing owned a separate fact", () => {
    expect(outcome("张三负责支付模块", "支付模块由张三负责")).toEqual({ outcome: "restatement" });
    expect(outcome("张三负责支付模块", "张三负责订单模块")).toEqual({ outcome: "separate" });
    expect(outcome("张三负责支付模块", "王五负责订单模块")).toEqual({ outcome: "separate" });
    // 由于 (because) and 理由 (a reason) do not start a predicate.
    expect(statementParts("由于网络问题部署推迟").frame[0]).toMatchObject({ subject: true });
  });
});

describe("a thing named by a letter or a number: its own subject", () => {
  it.each([
    ["Service A uses Postgres 14", "Service B uses Postgres 15"],
    ["Service A runs on port 8080", "Service B now runs on port 9090"],
    ["Plan A costs $10", "Plan B costs $20"],
    ["Server 1 has 16 GB RAM", "Server 2 has 32 GB RAM"],
    ["Option 1 is cheaper", "Option 2 is cheaper"],
    ["Team A owns billing", "Team B owns billing"],
  ])("%s / %s: separate", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "separate" });
    expect(outcome(newer, older)).toEqual({ outcome: "separate" });
  });

  it.each([
    ["Service A uses Postgres 14", "Service A now uses Postgres 15"],
    ["Server 1 has 16 GB RAM", "Server 1 now has 32 GB RAM"],
  ])("%s / %s: the same thing, a change", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "change", reason: "value" });
  });

  it("reads a capital letter after a word as a name, not the article or `I`", () => {
    expect(statementParts("Service A uses Postgres").ids).toEqual(["service a"]);
    expect(statementParts("Server 2 has 32 GB RAM").ids).toEqual(["server 2"]);
    expect(statementParts("a service uses Postgres").ids).toEqual([]);
    expect(statementParts("Yesterday I moved the backups").ids).toEqual([]);
    expect(statementParts("Vitamin CD is a band").ids).toEqual([]);
    // The mark is the rule's own: a statement written with it reads as without.
    expect(statementParts("Service \u2062A uses Postgres")).toEqual(
      statementParts("Service A uses Postgres"),
    );
  });
});

describe('a change marker does not join two subjects (docs/decisions.md, "A change marker does not join two subjects")', () => {
  it.each([
    // Subjects that share their first words and part: each names a thing the other does not.
    ["数据库连接池上限是20", "数据库连接池超时改为30秒"],
    ["数据库连接池超时改为30秒", "数据库连接池上限改为50"],
    ["数据库备份时间是凌晨2点", "数据库备份保留改为7天"],
    ["订单服务的超时是30秒", "订单服务的重试次数改为5次"],
    ["前端构建缓存改为3天", "前端构建超时改为10分钟"],
    ["the build server timeout is 30s", "the build server region is now eu-west"],
    ["the build server timeout is now 60s", "the build server region changed to eu-west"],
    ["the build server memory limit is 16 GB", "the build server disk limit is now 200 GB"],
    ["the payment service timeout is 30 seconds", "the payment service retry count changed to 5"],
  ])("%s / %s: separate", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "separate" });
    expect(outcome(newer, older)).toEqual({ outcome: "separate" });
  });

  it.each([
    // The reported pairs: separate before this rule too, their frames sharing less than
    // RELATED_FRAME (a shorter prefix; `staging` an identifier of both).
    ["数据库连接池上限改为50", "数据库备份时间改为凌晨3点"],
    ["the staging server timeout is now 60s", "the staging server region is now eu-west"],
  ])("%s / %s: separate", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "separate" });
    expect(outcome(newer, older)).toEqual({ outcome: "separate" });
  });

  it.each([
    // One subject, said in the same or fewer words, or across a filler: still a change.
    ["数据库连接池上限是20", "数据库连接池上限改为50"],
    ["数据库连接池上限是20", "连接池上限改为50"],
    ["数据库连接池上限是20", "数据库连接池上限从20改为50"],
    ["数据库的连接池上限是20", "数据库连接池的上限现在是50"],
    ["API timeout is 30s", "API timeout is now 60s"],
    ["the API timeout is 30s", "the API timeout changed to 60s"],
    ["the build server timeout is 30s", "the build server timeout is now 60s"],
    ["the build server timeout is 30s", "the timeout is now 60s"],
    // Nothing shared before the verb: the word there is the value that changed.
    ["Dana owns the billing service", "Priya owns the billing service now"],
  ])("%s / %s: change", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "change", reason: "value" });
  });

  it("the old value named in a from … to part still ties the two", () => {
    expect(
      outcome("the build server timeout is 30s", "the build server limit changed from 30s to 60s"),
    ).toEqual({ outcome: "change", reason: "value" });
  });
});

describe("a value on one side, a manner on the other: two facts of one subject", () => {
  it.each([
    // The deploy day and the deploy method: neither replaces the other, in either order.
    ["we will deploy on Tuesdays only.", "we deploy with blue-green from now on."],
    ["we will deploy on Tuesdays only.", "we deploy with blue-green."],
    ["we deploy with blue-green", "we deploy on Tuesdays from now on"],
    ["the sync runs at 9:00", "the sync runs via rsync now"],
  ])("%s / %s: separate", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "separate" });
  });

  it.each([
    // Another day is still a change, and a word outside a manner phrase may replace the value.
    ["we deploy on Tuesdays", "we deploy on Thursdays from now on"],
    ["we will deploy on Tuesdays only.", "we deploy on Thursdays from now on."],
    ["standup is at 9:30", "standup is async now"],
    ["the demo is on the 14th", "the demo is postponed indefinitely"],
    ["we deploy with blue-green on Tuesdays", "we deploy with canaries on Tuesdays from now on"],
  ])("%s / %s: change", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "change", reason: "value" });
  });

  it("reads the words of a manner phrase as such", () => {
    expect(statementParts("we deploy with blue-green and run smoke tests").frame).toEqual([
      { word: "deploi", subject: false },
      { word: "bluegreen", subject: false, manner: "with" },
      { word: "run", subject: false },
      { word: "smoke", subject: false },
      { word: "test", subject: false },
    ]);
  });
});

describe("a restatement: the same fact in other words", () => {
  it.each([
    ["we will not deploy on Fridays", "We will not deploy on Fridays."],
    ["we do not deploy on Fridays", "no deploys on Fridays"],
    ["Priya owns the billing service", "the billing service is owned by Priya"],
    ["code freeze is at 15:00 on Thursday", "code freeze: Thursday 15:00"],
    ["we switched the events store to ClickHouse", "the events store is on ClickHouse now"],
    ["ticket PROJ-202 is blocked", "PROJ-202 is still blocked"],
    ["我们周五不部署", "周五我们不部署"],
    ["周会改为周四下午三点", "周会在周四下午三点"],
    ["早会 9 点半开始", "早会九点半开始"],
    ["团建地点改到苏州", "团建在苏州"],
  ])("%s / %s", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "restatement" });
  });
});

describe('a statement that only adds a word restates (docs/decisions.md, "A statement that only adds a word restates")', () => {
  it.each([
    ["we ship on Friday", "we ship on Friday today"],
    ["use Postgres for the job queue", "use Postgres for the job queue now"],
    ["use Postgres", "use Postgres now"],
    ["standup is at 9:30", "standup is at 9:30 today"],
  ])("%s / %s: restatement", (older, newer) => {
    expect(outcome(older, newer)).toEqual({ outcome: "restatement" });
  });

  it.each([
    // A value replaced, or replaced and a word added, or two values added: still a change.
    ["we ship on Friday", "we ship on Monday"],
    ["we ship on Friday", "we ship on Monday today"],
    ["we ship on Friday", "we ship on Friday at 10:00 today"],
    ["use Postgres for the job queue", "use MySQL for the job queue"],
    // One value added that is a fact of its own, not a word of saying.
    ["the API limit is 100 requests per second", "the API limit is 100 requests per 60 seconds"],
    ["we ship on Friday", "we ship on Friday 13"],
  ])("%s / %s: change", (older, newer) => {
    expect(outcome(older, newer)).toMatchObject({ outcome: "change" });
  });
});

describe("what the rule cannot decide is a possible change, never superseded", () => {
  it("a frame shared in part, another word on each side, no change marker", () => {
    expect(
      outcome("the standup is remote on Wednesdays", "the standup is in person on Wednesdays"),
    ).toEqual({ outcome: "possible-change", reason: "value" });
  });

  it("a qualifier on one side only", () => {
    expect(
      outcome("the database has 50 GB of disk", "the staging database has 200 GB of disk"),
    ).toEqual({ outcome: "possible-change", reason: "value" });
  });
});

describe("other languages keep the rule from before", () => {
  it("reads English and Chinese, and nothing else", () => {
    expect(statementLanguage("we deploy on Fridays")).toBe("en");
    expect(statementLanguage("我们周五部署")).toBe("zh");
    expect(statementLanguage("nous déployons le vendredi")).toBe("other");
    expect(statementLanguage("金曜日にデプロイする")).toBe("other");
    expect(statementLanguage("мы деплоим по пятницам")).toBe("other");
    expect(statementLanguage("Le quota est fixé à 200")).toBe("other");
  });

  it.each([
    ["Wir deployen am Freitag nicht mehr für München", "Wir deployen am Freitag für München"],
    [
      "Le quota de l'API est fixé à 200 par seconde",
      "Le quota de l'API est fixé à 100 par seconde",
    ],
    ["金曜日にデプロイしない", "金曜日にデプロイする"],
  ])("%s / %s", (newer, older) => {
    expect(compareStatements(newer, older)).toEqual(legacyOutcome(newer, older));
  });
});

describe("Japanese statements of one topic (legacyOutcome, japaneseTopicChange)", () => {
  it.each([
    ["APIのタイムアウトを60秒に変更しました", "APIのタイムアウトは30秒です"],
    ["接続数上限を300に変更した", "接続数上限は200"],
    ["接続数上限は300です", "接続数上限は200です"],
    ["定例会議を木曜日に変更", "定例会議は水曜日"],
  ])("%s after %s: a change of value", (newer, older) => {
    expect(compareStatements(newer, older)).toEqual({ outcome: "change", reason: "value" });
  });

  it.each([
    // Another topic, the same change words.
    ["DBのタイムアウトを60秒に変更しました", "APIのタイムアウトは30秒です"],
    ["接続数上限を300に変更した", "接続タイムアウトは200"],
    // One topic, no value on one side: nothing to compare.
    ["APIのタイムアウトを廃止しました", "APIのタイムアウトは30秒です"],
    // One topic, the same value said again in other words.
    ["APIのタイムアウトを30秒に設定しました", "APIのタイムアウトは30秒です"],
  ])("%s after %s: not a change", (newer, older) => {
    expect(compareStatements(newer, older).outcome).not.toBe("change");
  });

  it("the same statement is a restatement", () => {
    expect(compareStatements("接続数上限は200です", "接続数上限は200です")).toEqual({
      outcome: "restatement",
    });
  });
});

describe("a verb of the list before `is` names a thing of the subject", () => {
  it.each([
    ["the API gateway log level is now debug", "the API gateway timeout is 30 seconds"],
    ["the deploy window start time is now 10:00", "the deploy window end time is 12:00"],
  ])("%s after %s: separate", (newer, older) => {
    expect(compareStatements(newer, older).outcome).toBe("separate");
  });

  it.each([
    ["the deploy window is now Thursday", "the deploy window is Friday"],
    ["the server logs are now kept 90 days", "the server logs are kept 30 days"],
    ["the API gateway log level is now debug", "the API gateway log level is info"],
    ["Priya owns the billing service now", "Dana owns the billing service"],
  ])("%s after %s: a change", (newer, older) => {
    expect(compareStatements(newer, older).outcome).toBe("change");
  });
});

// Pairs a new user tried (2026-12-06): each was read as a change and superseded a fact still true.
describe("other subjects, a change marker in the later one: separate", () => {
  it.each([
    // The same qualifier (`staging`), another noun.
    ["The staging cache moved to port 6380.", "The staging DB is on port 5433."],
    // The same value again, and what followed the change: another fact.
    ["连接池上限改为50后超时消失了", "数据库连接池上限改为50"],
  ])("%s after %s", (newer, older) => {
    expect(compareStatements(newer, older).outcome).toBe("separate");
  });

  it.each([
    ["The staging DB moved to port 6380.", "The staging DB is on port 5433."],
    ["Alex is now the release manager for 4.2", "Sam is the release manager for 4.2"],
    ["连接池上限改为80", "数据库连接池上限改为50"],
  ])("but %s after %s: a change", (newer, older) => {
    expect(compareStatements(newer, older).outcome).toBe("change");
  });
});

// A subject that starts with or holds 用, 在, 有, 会 as part of a noun (用户, 在线, 有效, 会话,
// 使用率) was read from its first character as the predicate: no subject word was left, and another
// subject's new value superseded it (a new user's re-trial, 2026-12-06).
describe("Chinese verbs inside nouns of the subject", () => {
  it.each([
    ["用户连接池上限改为50", "用户连接超时是30秒"],
    ["订单服务的端口改为9090", "用户服务的端口是8080"],
    ["订单服务改用 MySQL 8.0", "用户服务用的是 MySQL 5.7"],
    ["注册人数峰值改为800", "在线人数峰值是500"],
    ["退款订单的上限改为200", "有效订单的上限是100"],
    ["内存使用率告警阈值改为90%", "CPU使用率告警阈值是80%"],
    ["用户的会话超时改为60分钟", "管理员的会话超时是30分钟"],
  ])("%s after %s: separate", (newer, older) => {
    expect(compareStatements(newer, older).outcome).toBe("separate");
  });

  it.each([
    ["用户连接池上限改为50", "用户连接池上限是20"],
    ["在线人数峰值改为800", "在线人数峰值是500"],
    ["CPU使用率告警阈值改为90%", "CPU使用率告警阈值是80%"],
    ["管理员的会话超时改为60分钟", "管理员的会话超时是30分钟"],
    ["我们改用 Memcached 做缓存", "我们用 Redis 做缓存"],
  ])("%s after %s: a change", (newer, older) => {
    expect(compareStatements(newer, older).outcome).toBe("change");
  });
});
