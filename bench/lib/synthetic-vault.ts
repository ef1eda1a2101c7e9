/**
 * Deterministic synthetic memory vaults for the search benchmark: agents
 * with daily journals, trackers, knowledge topics, a shared library and an isolated zone; notes of
 * realistic sizes (log-normal, median about 1.6 KB, a long tail up to 60 KB, one note over the size
 * cap per 10k notes); text in English (70%), Chinese (20%) and both (10%), drawn from Zipf-
 * distributed vocabularies with a long tail, plus ids (`INC-2024-0887`) and section numbers
 * (`3.2.5`). Also produces a mixed query set drawn from the same text.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** mulberry32: a small seeded PRNG, so every run generates the same vault. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON_EN = `the of and to a in is that for it as was with be by on not he this are or his from at which but
have an they you were her she there been one all we their has would when if so no will more can
out who up what about into than them only other time new some could these two may first then do
any like my now over such our man me even most made after also did many before must through back
years where much your way well down should because each just those people how too little state good
very make world still own see men work long get here between both life being under never day same
another know while last might us great old year off come since against go came right used take
three project team customer review page traffic bounce rate blog post audit checklist quality
content score metric launch campaign pricing churn account onboarding quickstart docs release
incident report deploy server database query index search memory agent journal tracker goal task
decision question proposal insight pattern strategy learning budget revenue growth marketing sales
support ticket backlog sprint roadmap feature bug fix test build pipeline latency cache user session
login token refund payment invoice contract compliance policy risk security access audit log backup
design prototype research interview survey feedback retention conversion funnel landing signup trial
email newsletter meeting call notes plan draft publish schedule deadline priority owner status
morning afternoon evening week month quarter today tomorrow yesterday weekend holiday travel family
friend health sleep exercise reading writing painting music garden coffee dinner lunch breakfast
analysis summary result reason cause effect improve reduce increase measure track compare estimate
approve reject escalate assign review merge ship rollback monitor alert threshold dashboard chart`;

const COMMON_ZH = `今天 明天 昨天 本周 下周 客户 项目 团队 会议 计划 目标 任务 决定 问题 建议 复盘 回顾 模式 心得
认证 系统 重构 令牌 转账 跨境 频次 阈值 触发 反洗钱 操作 细则 风险 合规 审计 政策 流程 报告
数据 指标 用户 留存 转化 增长 营销 销售 预算 收入 成本 价格 合同 发票 退款 支付 账户 登录
上线 发布 部署 测试 修复 缺陷 需求 设计 原型 调研 访谈 反馈 文档 培训 招聘 绩效 评审 优先级
服务器 数据库 缓存 延迟 搜索 索引 记忆 日志 备份 安全 权限 监控 告警 看板 图表 分析 总结
原因 结果 影响 改进 降低 提高 衡量 跟踪 比较 估算 批准 拒绝 升级 分配 合并 回滚 检查 清单
质量 评分 页面 流量 跳出率 博客 文章 首页 活动 渠道 品牌 市场 竞争 对手 产品 功能 版本 迭代
早上 下午 晚上 周末 假期 出差 家人 朋友 健康 睡眠 运动 阅读 写作 音乐 咖啡 晚饭 午饭 早起`;

/** Characters for the Chinese long tail (two-character terms made of them). */
const ZH_CHARS =
  "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";

const SYLLABLES =
  "ka ri mo tan ber lin vex dor pha qui stel mon ra zu el ost ner pli cas dra fen gol hy ion jur kel lum mir nox orb pel quar rus sol tor ul ven wex yan zor".split(
    " ",
  );

/** Zipf sampler over `n` ranks with exponent `s` (by inverse CDF on a precomputed table). */
function zipf(n: number, s: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / Math.pow(i + 1, s);
    cdf[i] = sum;
  }
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** English and Chinese vocabularies: common words first, then a generated long tail. */
function vocabularies(rand: () => number): { en: string[]; zh: string[] } {
  const en = [...new Set(COMMON_EN.split(/\s+/).filter((w) => w))];
  const seen = new Set(en);
  while (en.length < 40_000) {
    const k = 2 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < k; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      en.push(w);
    }
  }
  const zh = [...new Set(COMMON_ZH.split(/\s+/).filter((w) => w))];
  const zseen = new Set(zh);
  const chars = Array.from(ZH_CHARS);
  while (zh.length < 20_000) {
    const k = rand() < 0.8 ? 2 : 3;
    let w = "";
    for (let i = 0; i < k; i++) w += chars[Math.floor(rand() * chars.length)];
    if (!zseen.has(w)) {
      zseen.add(w);
      zh.push(w);
    }
  }
  return { en, zh };
}

/** What {@link generateVault} wrote. */
export interface SyntheticVault {
  root: string;
  /** Vault-relative paths of all notes. */
  paths: string[];
  /** Total bytes written. */
  bytes: number;
  /** Sample text per note for building queries: two consecutive English words, Chinese words, ids. */
  samples: {
    enPairs: string[];
    zhWords: string[];
    ids: string[];
    sections: string[];
    tags: string[];
    domains: string[];
  };
}

const DOMAINS = ["compliance", "marketing", "engineering", "sales", "support", "finance", "people"];
const STATUSES = ["active", "active", "active", "draft", "superseded", "archived"];
const TAGS = [
  "project/alpha",
  "project/beta",
  "seo",
  "retro",
  "customer",
  "incident",
  "风控",
  "周报",
];

/**
 * Writes a synthetic vault of `notes` notes under `root` (which must be empty or absent).
 * @param seed PRNG seed; the same seed and size give the same files
 */
export function generateVault(root: string, notes: number, seed = 42): SyntheticVault {
  const rand = rng(seed);
  const { en, zh } = vocabularies(rand);
  const enWord = zipf(en.length, 1.05, rand);
  const zhWord = zipf(zh.length, 1.05, rand);
  const agents = Math.max(7, Math.round(notes / 1000));
  const paths: string[] = [];
  const samples: SyntheticVault["samples"] = {
    enPairs: [],
    zhWords: [],
    ids: [],
    sections: [],
    tags: TAGS,
    domains: DOMAINS,
  };
  let bytes = 0;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

  const sentenceEn = (): string => {
    const n = 6 + Math.floor(rand() * 14);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(en[enWord()] ?? "the");
    if (rand() < 0.01)
      words.splice(
        Math.floor(rand() * words.length),
        0,
        `INC-${2020 + Math.floor(rand() * 6)}-${String(Math.floor(rand() * 10000)).padStart(4, "0")}`,
      );
    if (rand() < 0.01)
      words.splice(
        Math.floor(rand() * words.length),
        0,
        `${1 + Math.floor(rand() * 9)}.${Math.floor(rand() * 9)}.${Math.floor(rand() * 9)}`,
      );
    const s = words.join(" ");
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const sentenceZh = (): string => {
    const n = 5 + Math.floor(rand() * 10);
    let s = "";
    for (let i = 0; i < n; i++) {
      s += zh[zhWord()] ?? "今天";
      if (i > 0 && i < n - 1 && rand() < 0.12) s += "，";
    }
    if (rand() < 0.06)
      s += `第${1 + Math.floor(rand() * 9)}.${Math.floor(rand() * 9)}.${Math.floor(rand() * 9)}条`;
    return `${s}。`;
  };
  const paragraph = (lang: "en" | "zh" | "mixed"): string => {
    const n = 1 + Math.floor(rand() * 4);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const l = lang === "mixed" ? (rand() < 0.5 ? "en" : "zh") : lang;
      parts.push(l === "en" ? sentenceEn() : sentenceZh());
    }
    return parts.join(lang === "en" ? " " : "");
  };
  // Log-normal sizes: median ~1.6 KB, long tail.
  const targetSize = (): number => {
    const u = Math.max(1e-9, rand());
    const v = rand();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.min(60_000, Math.max(200, Math.round(1600 * Math.exp(0.9 * normal))));
  };

  for (let i = 0; i < notes; i++) {
    const r = rand();
    const agent = `agent-${String(Math.floor(rand() * agents) + 1).padStart(2, "0")}`;
    const day = new Date(Date.UTC(2022, 0, 1) + Math.floor(rand() * 1400) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    let path: string;
    let type: string;
    if (r < 0.6) {
      path = `Memory/Agents/${agent}/Journal/${day}-${i}.md`;
      type = "journal";
    } else if (r < 0.68) {
      path = `Memory/Agents/${agent}/Trackers/${pick(["Tasks", "Goals", "Decisions", "Questions", "Proposals", "Reviews"])}-${i}.md`;
      type = "tracker";
    } else if (r < 0.9) {
      path = `Memory/Agents/${agent}/Knowledge/${pick(["learning", "strategy", "team", "customers"])}/Topic ${i}.md`;
      type = "knowledge";
    } else if (r < 0.98) {
      path = `Memory/Library/${pick(["engineering", "policy", "sales", "people"])}/Library topic ${i}.md`;
      type = "library";
    } else {
      path = `Memory/Restricted/${pick(["hr", "legal"])}/Restricted ${i}.md`;
      type = "knowledge";
    }
    const langRoll = rand();
    const lang: "en" | "zh" | "mixed" = langRoll < 0.7 ? "en" : langRoll < 0.9 ? "zh" : "mixed";
    const domain = pick(DOMAINS);
    const tags = [pick(TAGS), pick(TAGS)];
    const lines = [
      "---",
      `id: ${type}-${i}`,
      `type: ${type}`,
      `domain: ${domain}`,
      `status: ${pick(STATUSES)}`,
      `created_at: ${day}T09:${String(Math.floor(rand() * 60)).padStart(2, "0")}:00+08:00`,
      `tags: [${[...new Set(tags)].join(", ")}]`,
      ...(rand() < 0.3 ? [`confidence: ${(0.5 + rand() * 0.5).toFixed(2)}`] : []),
      ...(rand() < 0.02 ? [`expires_at: 2023-0${1 + Math.floor(rand() * 9)}-15`] : []),
      "---",
      `# ${lang === "zh" ? sentenceZh().slice(0, 12) : sentenceEn().split(" ").slice(0, 5).join(" ")}`,
      "",
    ];
    let text = lines.join("\n");
    const size = i % 10_000 === 5_000 ? 2_200_000 : targetSize();
    let block = 0;
    while (Buffer.byteLength(text) < size) {
      const roll = rand();
      if (roll < 0.12)
        text += `\n## ${lang === "zh" ? sentenceZh().slice(0, 8) : sentenceEn().split(" ").slice(0, 4).join(" ")}\n\n`;
      else if (roll < 0.45) {
        text += `- ${rand() < 0.3 ? "[ ] " : ""}${paragraph(lang).slice(0, 200)} ^b-${block++}\n`;
      } else text += `\n${paragraph(lang)}\n\n`;
      if (size > 100_000 && Buffer.byteLength(text) < size)
        text += `${paragraph(lang)}\n`.repeat(400);
    }
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
    paths.push(path);
    if (i % 37 === 0 && !path.startsWith("Memory/Restricted/")) {
      const enMatch = /(?:^|[ .])([a-z]{3,}) ([a-z]{3,})(?=[ .])/.exec(
        text.slice(text.indexOf("\n---", 4) + 4),
      );
      if (enMatch) samples.enPairs.push(`${enMatch[1]} ${enMatch[2]}`);
      const zhMatch = /[\u4e00-\u9fff]{2,3}/.exec(text.slice(200));
      if (zhMatch) samples.zhWords.push(zhMatch[0]);
      const id = /INC-\d{4}-\d{4}/.exec(text);
      if (id) samples.ids.push(id[0]);
      const sec = /\d\.\d\.\d/.exec(text);
      if (sec) samples.sections.push(sec[0]);
    }
  }
  return { root, paths, bytes, samples };
}

/** A benchmark query: the text given to search, and the literal terms ripgrep is given. */
export interface BenchQuery {
  kind: string;
  query: string;
  /** Fixed strings for `rg -F -i -e … -e …` (any of them). */
  rg: string[];
}

/**
 * 200 mixed queries over a generated vault: common and rare English words, word pairs, Chinese
 * words, ids, section numbers, quoted phrases and filtered queries.
 */
export function benchQueries(v: SyntheticVault, count = 200, seed = 7): BenchQuery[] {
  const rand = rng(seed);
  const { en } = vocabularies(rng(42));
  const pick = <T>(xs: readonly T[], fallback: T): T =>
    xs.length > 0 ? (xs[Math.floor(rand() * xs.length)] as T) : fallback;
  const out: BenchQuery[] = [];
  for (let i = 0; i < count; i++) {
    const r = i % 20;
    if (r < 5) {
      const w = en[20 + Math.floor(rand() * 400)] ?? "review";
      out.push({ kind: "word", query: w, rg: [w] });
    } else if (r < 8) {
      const a = en[50 + Math.floor(rand() * 1000)] ?? "team";
      const b = en[50 + Math.floor(rand() * 3000)] ?? "plan";
      out.push({ kind: "two words", query: `${a} ${b}`, rg: [a, b] });
    } else if (r < 10) {
      const w = en[3000 + Math.floor(rand() * 30000)] ?? "zorvex";
      out.push({ kind: "rare word", query: w, rg: [w] });
    } else if (r < 13) {
      const w = pick(v.samples.zhWords, "客户");
      out.push({ kind: "chinese", query: w, rg: [w] });
    } else if (r < 14) {
      const w = pick(v.samples.ids, "INC-2024-0887");
      out.push({ kind: "id", query: w, rg: [w] });
    } else if (r < 15) {
      const w = pick(v.samples.sections, "3.2.5");
      out.push({ kind: "section", query: w, rg: [w] });
    } else if (r < 17) {
      const p = pick(v.samples.enPairs, "bounce rate");
      out.push({ kind: "phrase", query: `"${p}"`, rg: [p] });
    } else if (r < 19) {
      const w = en[20 + Math.floor(rand() * 800)] ?? "review";
      const d = pick(v.samples.domains, "compliance");
      out.push({ kind: "filtered", query: `status:active domain:${d} ${w}`, rg: [w] });
    } else {
      const t = pick(v.samples.tags, "seo");
      const w = en[20 + Math.floor(rand() * 800)] ?? "review";
      out.push({ kind: "tag", query: `tag:${t} after:2023-01-01 ${w}`, rg: [w] });
    }
  }
  return out;
}
