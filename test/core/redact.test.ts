import { describe, expect, it } from "vitest";
import { isSecretName, redactSecrets } from "../../src/core/redact";
import { newTokenSecret } from "../../src/mcp/http/tokens";
import { FAKE } from "./ingest/transcript-fixtures";

describe("redactSecrets", () => {
  it.each([
    ["aws-access-key", `key id ${FAKE.aws} in use`],
    ["github-token", `git push with ${FAKE.github}`],
    ["anthropic-api-key", `ANTHROPIC key ${FAKE.anthropic}`],
    ["openai-api-key", `using ${FAKE.openai} now`],
    ["slack-token", `bot ${FAKE.slack}`],
    ["jwt", `Bearer ${FAKE.jwt}`],
    ["gitlab-token", `token ${FAKE.gitlab}`],
    ["google-api-key", `maps ${FAKE.google}`],
    ["private-key", `the key:\n${FAKE.privateKey}\nend`],
    ["agent-memory-token", `server token ${FAKE.agentMemory} for atlas`],
  ])("replaces a %s", (name, text) => {
    const out = redactSecrets(text);
    expect(out).toContain(`[redacted: ${name}]`);
    for (const secret of Object.values(FAKE)) expect(out).not.toContain(secret);
  });

  it("takes the password out of a URL and the value out of a secret assignment, keeping the name", () => {
    expect(redactSecrets(`psql postgres://app:${FAKE.urlPassword}@db:5432/shop`)).toBe(
      "psql postgres://[redacted]@db:5432/shop",
    );
    expect(redactSecrets("export DB_PASSWORD=correcthorsebattery")).toBe(
      "export DB_PASSWORD=[redacted: secret-assignment]",
    );
  });

  it("takes the password out of curl's -u and the credentials out of an Authorization header", () => {
    expect(redactSecrets(`curl -u admin:${FAKE.urlPassword} https://api`)).toBe(
      "curl -u admin:[redacted: auth-user] https://api",
    );
    expect(redactSecrets('curl -H "Authorization: Basic YWRtaW46aHVudGVyMg==" api')).toBe(
      'curl -H "Authorization: Basic [redacted: auth-header]" api',
    );
  });

  it("gives the same text when run again on what it redacted (no doubled label)", () => {
    const texts = [
      `curl -u alice:${FAKE.urlPassword} https://api`,
      'curl -H "Authorization: Basic YWRtaW46aHVudGVyMg==" api',
      "export DB_PASSWORD=correcthorsebattery",
      `psql postgres://app:${FAKE.urlPassword}@db:5432/shop`,
      ...Object.values(FAKE).map((s) => `secret: ${s} here`),
    ];
    for (const text of texts) {
      const once = redactSecrets(text);
      expect(redactSecrets(once)).toBe(once);
    }
    expect(redactSecrets(redactSecrets(`curl -u alice:${FAKE.urlPassword} x`))).toBe(
      "curl -u alice:[redacted: auth-user] x",
    );
  });

  it("redacts a private key block cut before its END line to the end of the text", () => {
    const cut = FAKE.privateKey.slice(0, 60);
    expect(redactSecrets(`see ${cut}`)).toBe("see [redacted: private-key]");
  });

  it("redacts an AWS access key id with any capitals or digits, 0, 1, 8 and 9 included", () => {
    for (const key of [
      "AKIA" + "NVORSPG48003Z8Z6",
      "AKIA" + "XYWF0M1HQPZ4P3X9",
      "ASIA" + "0123456789ABCDEF",
    ])
      expect(redactSecrets(`rotate ${key} by Friday`)).toBe(
        "rotate [redacted: aws-access-key] by Friday",
      );
  });

  it("redacts an AWS secret key written after the word secret in prose", () => {
    const key = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY";
    const cases: [string, string][] = [
      [`AWS secret ${key} and more`, "AWS secret [redacted: aws-secret-key] and more"],
      [`the secret key is ${key}.`, "the secret key is [redacted: aws-secret-key]."],
      [`Secret: "${key}"`, 'Secret: "[redacted: aws-secret-key]"'],
    ];
    for (const [text, want] of cases) expect(redactSecrets(text)).toBe(want);
    // Forty letters after "secret" without a digit, or a 39-character value, are not a key.
    const plain = `the secret ${"abcdefghijABCDEFGHIJ".repeat(2)} stays`;
    expect(redactSecrets(plain)).toBe(plain);
    const short = `secret ${key.slice(1)} stays`;
    expect(redactSecrets(short)).toBe(short);
  });

  it("redacts a secret given to a command's option or said in prose, keeping the option", () => {
    const cases: [string, string][] = [
      ["app --token 0a1b2c3d4e5f", "app --token [redacted: password-option]"],
      ["deploy --db-password=Sup3r", "deploy --db-password=[redacted: password-option]"],
      ["cli --api-key 'k3y-value'", "cli --api-key '[redacted: password-option]'"],
      ["sshpass -p Ssh5ecret ssh host", "sshpass -p [redacted: password-option] ssh host"],
      ["mysql -u root -pMyS3cretPass shop", "mysql -u root -p[redacted: password-option] shop"],
      ["the db password is Sup3rS3cret!", "the db password is [redacted: password-prose]"],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text)).toBe(want);
      expect(redactSecrets(want)).toBe(want);
    }
  });

  it("keeps a URL's ?token= redacted once with balanced brackets, a field's value redacted, and ordinary text whole", () => {
    expect(redactSecrets("reset via https://example.com/reset?token=abcdefgh12345678 soon")).toBe(
      "reset via https://example.com/reset?token=[redacted] soon",
    );
    expect(
      redactSecrets("J7 [db_password:: correcthorse99] and [api_key:: x8Fj3kLm9QpR2sTzQ]"),
    ).toBe(
      "J7 [db_password:: [redacted: secret-assignment]] and [api_key:: [redacted: secret-assignment]]",
    );
    for (const plain of [
      "sk-learn-preprocessing-pipeline is the library",
      "run with --no-password mode; then stop",
      "the password is expired! ask again",
    ])
      expect(redactSecrets(plain)).toBe(plain);
    expect(redactSecrets("mysql -pHunter2pass; the rest")).toBe(
      "mysql -p[redacted: password-option]; the rest",
    );
  });

  it("takes the tail of a key wrapped onto the next line with the key", () => {
    const key = FAKE.anthropic;
    const text = `my key: ${key.slice(0, 40)}\n${key.slice(40)}Rs8tUv1wXy2zAb3cDe4f\nthanks`;
    const out = redactSecrets(text);
    expect(out).toBe("my key: [redacted: anthropic-api-key]\nthanks");
    // A line of words after a redacted key stays.
    const prose = `token ${FAKE.github}\nthen we deploy the service`;
    expect(redactSecrets(prose)).toBe("token [redacted: github-token]\nthen we deploy the service");
  });

  it("redacts the value of a secret assignment whatever its length, keeping the name", () => {
    const cases: [string, string][] = [
      ["password=hunter2", "password=[redacted: secret-assignment]"],
      ["export DB_PASSWORD=abc", "export DB_PASSWORD=[redacted: secret-assignment]"],
      ["password: abc123", "password: [redacted: secret-assignment]"],
      ["API_KEY=abc1234 then", "API_KEY=[redacted: secret-assignment] then"],
      ["SLACK_TOKEN=xyz12", "SLACK_TOKEN=[redacted: secret-assignment]"],
      ['{"password": "pw1"}', '{"password": "[redacted: secret-assignment]"}'],
      ["password: hunter", "password: [redacted: secret-assignment]"],
      ["[db_password:: abc]", "[db_password:: [redacted: secret-assignment]]"],
      ["token=12", "token=[redacted: secret-assignment]"],
      ["password=$ecret1", "password=[redacted: secret-assignment]"],
      // Names that end in a key's word: `…_KEY` in capitals, the kinds of key in any case.
      ["SECRET_KEY=abc1234", "SECRET_KEY=[redacted: secret-assignment]"],
      ["DJANGO_SECRET_KEY=xyz98765", "DJANGO_SECRET_KEY=[redacted: secret-assignment]"],
      ["STRIPE_KEY=abc", "STRIPE_KEY=[redacted: secret-assignment]"],
      ["AWS_SECRET_ACCESS_KEY=abc", "AWS_SECRET_ACCESS_KEY=[redacted: secret-assignment]"],
      ["private_key=hunter2", "private_key=[redacted: secret-assignment]"],
      ["DB_PASS=abc", "DB_PASS=[redacted: secret-assignment]"],
      ["pwd=abc1", "pwd=[redacted: secret-assignment]"],
      // A quoted value goes whole.
      ['PASSWORD="hunter two"', 'PASSWORD="[redacted: secret-assignment]"'],
      ["password: 'correct horse battery'", "password: '[redacted: secret-assignment]'"],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text)).toBe(want);
      expect(redactSecrets(want)).toBe(want);
    }
  });

  it("keeps the sentence punctuation after an unquoted value, and redacts the value whole", () => {
    const R = "[redacted: secret-assignment]";
    const cases: [string, string][] = [
      ["password: hunter2.", `password: ${R}.`],
      ["password: hunter2. Then log in", `password: ${R}. Then log in`],
      ["password: hunter2!", `password: ${R}!`],
      ["is it API_KEY=abc123xyz789?", `is it API_KEY=${R}?`],
      ["password=hunter2, then", `password=${R}, then`],
      ["password=hunter2; then", `password=${R}; then`],
      ["(token: abc123!)", `(token: ${R}!)`],
      ["password: pw1...", `password: ${R}...`],
      ["password: a.", `password: ${R}.`],
      ["[db_password:: hunter2.]", `[db_password:: ${R}.]`],
      ["密码是 password: hunter2。", `密码是 password: ${R}。`],
      ["password: hunter2。下一步是部署。", `password: ${R}。下一步是部署。`],
      ["password: hunter2！ 好", `password: ${R}！ 好`],
      ["max_tokens: 4096.", "max_tokens: 4096."],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text), text).toBe(want);
      expect(redactSecrets(want), want).toBe(want);
    }
  });

  it("takes punctuation inside a value with it: no part of a secret is left", () => {
    const R = "[redacted: secret-assignment]";
    for (const [text, want] of [
      ["password: hunt.er2", `password: ${R}`],
      ["password: hunter2.x", `password: ${R}`],
      ["password: hunter2.x.", `password: ${R}.`],
      ["password: Pa55!word?", `password: ${R}?`],
      ["SECRET_KEY=a.b.c.d.e.f.g.h!", `SECRET_KEY=${R}!`],
      ["password: hunter2。abc", `password: ${R}`],
      ["token=x!y?z", `token=${R}`],
    ] as const) {
      const out = redactSecrets(text);
      expect(out, text).toBe(want);
      for (const part of ["hunt", "er2", "x", "word", "a.b", "abc", "y?z"])
        if (text.includes(part) && !want.includes(part)) expect(out, text).not.toContain(part);
    }
  });

  it("redacts a key, token or password said in prose, keeping the words around it", () => {
    const cases: [string, string][] = [
      ["The API key is qwe123rty456", "The API key is [redacted: secret-prose]"],
      // A full stop that ends the sentence stays; "!" goes with the value ("is Sup3rS3cret!").
      ["the token was ghx99abc1234.", "the token was [redacted: secret-prose]."],
      ["The API key is qwe123rty456. Next.", "The API key is [redacted: secret-prose]. Next."],
      [
        "the password for root is Xq9zLeak01 on staging",
        "the password for root is [redacted: password-prose] on staging",
      ],
      ["password for root: hunter2024", "password for root: [redacted: password-prose]"],
      [
        "the password of the db is now Mz4vLeak03",
        "the password of the db is now [redacted: password-prose]",
      ],
      ["passwords are hunter2024", "passwords are [redacted: password-prose]"],
      ["call it with Bearer abc123def456xyz", "call it with Bearer [redacted: auth-header]"],
      ["The secret key is 9f8e7d6c5b", "The secret key is [redacted: secret-prose]"],
      ["set the password to Summer2024!", "set the password to [redacted: password-prose]"],
      ["the password hunter2024 works", "the password [redacted: password-prose] works"],
      ["the password is Pässw0rd", "the password is [redacted: password-prose]"],
      ["password 是 abcd5678", "password 是 [redacted: password-prose]"],
      ["API key是xyz12345678，记下", "API key是[redacted: secret-prose]，记下"],
      ["API key: qwe123rty456", "API key: [redacted: secret-assignment]"],
      ["Private key = sk-abc", "Private key = [redacted: secret-assignment]"],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text), text).toBe(want);
      expect(redactSecrets(want), want).toBe(want);
    }
  });

  it("redacts a secret after Markdown around its name, a reset, a qualifier of a few words, a command's password option", () => {
    const cases: [string, string][] = [
      ["**password**: hunter2", "**password**: [redacted: secret-assignment]"],
      ["**Password:** hunter2", "**Password:** [redacted: secret-assignment]"],
      ["`password`: hunter2", "`password`: [redacted: secret-assignment]"],
      [
        "the password for the admin account is hunter2",
        "the password for the admin account is [redacted: password-prose]",
      ],
      [
        "The password for admin was reset to Welcome2026!",
        "The password for admin was reset to [redacted: password-prose]",
      ],
      ["API key 换成了 abcd1234efgh", "API key 换成了 [redacted: secret-prose]"],
      ["docker login -u bob -p hunter2", "docker login -u bob -p [redacted: password-option]"],
      ["redis-cli -a hunter2 ping", "redis-cli -a [redacted: password-option] ping"],
      [
        "gpg --batch --passphrase hunter2 -d f.gpg",
        "gpg --batch --passphrase [redacted: password-option] -d f.gpg",
      ],
      [
        "openssl pkcs12 -passout pass:hunter2 -out a.p12",
        "openssl pkcs12 -passout pass:[redacted: password-option] -out a.p12",
      ],
      ["keytool -list -storepass changeit", "keytool -list -storepass [redacted: password-option]"],
      ["ldapsearch -x -w hunter2", "ldapsearch -x -w [redacted: password-option]"],
      ["hmac_key: 9f8e7d6c5b4a", "hmac_key: [redacted: secret-assignment]"],
      ["AccountKey=Eby8vdM02x", "AccountKey=[redacted: secret-assignment]"],
      ["passphrase: abc12345", "passphrase: [redacted: secret-assignment]"],
      ["암호: hunter2", "암호: [redacted: secret-assignment]"],
      ["シークレットキー＝abcd1234efgh", "シークレットキー＝[redacted: secret-assignment]"],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text), text).toBe(want);
      expect(redactSecrets(want), want).toBe(want);
    }
    for (const plain of [
      "**Password:** see the vault",
      "the password for the admin account is required",
      "zip -r out.zip dir",
      "docker login registry.example.com",
    ])
      expect(redactSecrets(plain), plain).toBe(plain);
  });

  it("leaves prose about keys and passwords alone: no digit, fewer than 6 characters, an algorithm's name", () => {
    // A password may be all digits; a key or a token has a letter too.
    expect(redactSecrets("the password is 12345678")).toBe(
      "the password is [redacted: password-prose]",
    );
    expect(redactSecrets("the token is 12345678")).toBe("the token is 12345678");
    // Six characters with a digit are a value after "is"; five are not (the boundary).
    expect(redactSecrets("the token is abc123")).toBe("the token is [redacted: secret-prose]");
    // Right after "password", a value of eight characters or more with a letter and two digits.
    expect(redactSecrets("the password abcdef12 works")).toBe(
      "the password [redacted: password-prose] works",
    );
    for (const plain of [
      "the token is abc12",
      "the password abcde12 works",
      "the password abcdefg1 works",
      "Fix the password column2 migration and the password utf8mb4 column",
      "the token is OAuth2",
      "the token is JWT-HS256",
      "the token is RFC6750 compliant",
      "the password is sha256-hashed",
      "the password is ISO-8859-1",
      "the password is 2FA-protected",
      "the secret was k8s-managed",
      "token: JWT-HS256",
      "password: sha256-crypt",
      "pwd: /home/user",
      "the pwd is /usr/local/bin2",
      "Bearer token authentication",
      // Counts, sizes and durations, and more names of algorithms and formats.
      "the max tokens for gpt-4o is 128000",
      "tokens are 128000 max",
      "the token is 86400s",
      "The token is 2048-bit",
      "the signing key is secp256k1",
      "the API key is UUIDv4",
      "the encryption key is XChaCha20-Poly1305",
      "hashes the password PBKDF2-HMAC-SHA256 with 600000 iterations",
      "The password is 1Password-managed",
      "the password 123456 works",
      "the password abcdef works",
      "the password is required",
      "the password field is empty",
      "password reset flow v2",
      "hash the password with sha256 first",
      "the password is sha256",
      "the API key is stored in the vault",
      "the token is valid for 3600 seconds",
      "rotate the API key to v2 format",
      "change the password to the new one",
      "encryption key: AES-256-GCM",
      "password123 is weak",
    ])
      expect(redactSecrets(plain), plain).toBe(plain);
  });

  it("keeps placeholders, non-values, type names, counts and prose after a secret's name", () => {
    for (const plain of [
      "password: required",
      "token=none",
      "secret: null",
      "api_key: true",
      "password=false",
      "password: ***",
      "API_KEY=<your-key>",
      "API_KEY=${OPENAI_API_KEY}",
      "export API_KEY=$OPENAI_API_KEY",
      "password: [redacted]",
      "token: [redacted: github-token]",
      "max_tokens: 4096",
      "tokens=12",
      "max_tokens=8192 and num_tokens: 1_000",
      "password: string;",
      "the rule for secrets: rotate them monthly",
      "Tokens: we count them",
      "**Password:** see the vault",
      "password=...",
      'password = ""',
      // A placeholder at the end of a sentence, and a key that is not a secret's.
      "secret: <your-key>.",
      "token: none.",
      "API_KEY=<your-key>.",
      "token: ${TOKEN}.",
      "sort_key=name",
      "primary_key: id",
      '"max_tokens": "4096"',
      '"api_key": "<your-key>"',
    ])
      expect(redactSecrets(plain), plain).toBe(plain);
  });

  it("redacts the tool's own bearer tokens, as the server makes them and in a header", () => {
    for (let i = 0; i < 50; i++) {
      const token = newTokenSecret();
      expect(redactSecrets(`use ${token} here`)).toBe("use [redacted: agent-memory-token] here");
      expect(redactSecrets(`(${token}).`)).toBe("([redacted: agent-memory-token]).");
    }
    expect(redactSecrets(`Authorization: Bearer ${FAKE.agentMemory}`)).toBe(
      "Authorization: Bearer [redacted: agent-memory-token]",
    );
    // `amt_` in an identifier is not a token.
    for (const plain of ["amt_total = amt_paid + amt_due", "the amt_ prefix"])
      expect(redactSecrets(plain)).toBe(plain);
  });

  it("leaves text without secrets alone, near misses included", () => {
    const text = [
      "AKIA" + "Q7XK2MZ4P6LW3RT", // 15 characters after AKIA: not an access key id
      "ghp_short",
      "sk-learn",
      "max_tokens=4096",
      "the task-runner and a JWT-like eyJhbG",
      "https://example.com/docs?page=2",
      "the password is required",
      "--token-file ~/.token and --password-stdin",
      "mysql -h db -P 3306 shop",
      "a long-lived identifier on its own line:",
      "ThisIsAnOrdinaryIdentifierName",
    ].join("\n");
    expect(redactSecrets(text)).toBe(text);
  });
});

describe("secrets named in Chinese, Japanese and Korean", () => {
  const R = "[redacted: secret-assignment]";
  const NAMES =
    "密码 密碼 口令 密钥 密鑰 秘钥 秘鑰 私钥 私鑰 令牌 凭据 憑據 パスワード 비밀번호".split(" ");

  it("redacts an ASCII value of four characters or more after every name and separator, keeping the name", () => {
    for (const name of NAMES)
      for (const sep of [
        ":",
        ": ",
        "：",
        "=",
        " = ",
        "是",
        "是 ",
        "为",
        "は ",
        "는 ",
        "是：",
        "::",
        "＝",
      ]) {
        const text = `${name}${sep}hunter2`;
        expect(redactSecrets(text), text).toBe(`${name}${sep}${R}`);
      }
  });

  it("redacts the new value of a rotated secret (改为, 改成了, 更新为, 设置为, 换成), not prose", () => {
    for (const sep of ["改为", "改为 ", "改成了", "更新为", "设置为", "设为", "换成", "重置为："]) {
      const text = `数据库密码${sep}abcd9999`;
      expect(redactSecrets(text), text).toBe(`数据库密码${sep}${R}`);
    }
    for (const text of ["修改密码的流程需要两步", "密码改为空", "密码改为abc"])
      expect(redactSecrets(text)).toBe(text);
  });

  it("leaves a value of three ASCII characters and redacts one of four (the boundary)", () => {
    for (const name of NAMES)
      for (const sep of [":", "：", "=", "是"]) {
        expect(redactSecrets(`${name}${sep}abc`)).toBe(`${name}${sep}abc`);
        expect(redactSecrets(`${name}${sep}abcd`)).toBe(`${name}${sep}${R}`);
        expect(redactSecrets(`${name}${sep}abc。`)).toBe(`${name}${sep}abc。`);
        expect(redactSecrets(`${name}${sep}abcd。`)).toBe(`${name}${sep}${R}。`);
      }
    expect(redactSecrets('{"密码": "abc"}')).toBe('{"密码": "abc"}');
    expect(redactSecrets('{"密码": "abcd"}')).toBe(`{"密码": "${R}"}`);
  });

  it("redacts the value in a sentence, keeping the words and punctuation around it", () => {
    const cases: [string, string][] = [
      ["测试库的密码是 hunter2，记得改。", `测试库的密码是 ${R}，记得改。`],
      ["数据库密码：s3cret!", `数据库密码：${R}!`],
      ["密码是hunter2然后重启", `密码是${R}然后重启`],
      ["登录密码为 Pa55word。下一步是部署。", `登录密码为 ${R}。下一步是部署。`],
      ["私钥：~/.ssh/id_rsa", `私钥：${R}`],
      ["令牌：hunt.er2", `令牌：${R}`],
      ["密钥是：sk12345", `密钥是：${R}`],
      ["パスワードは abcd1234 です", `パスワードは ${R} です`],
      ["パスワード：abcd1234。", `パスワード：${R}。`],
      ["비밀번호는 abcd1234입니다", `비밀번호는 ${R}입니다`],
      ["[密码:: hunter2]", `[密码:: ${R}]`],
      ['密码："hunter two"', `密码："${R}"`],
      ["密码是 password: hunter2。", `密码是 password: ${R}。`],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text), text).toBe(want);
      expect(redactSecrets(want), want).toBe(want);
    }
  });

  it("redacts a value after a space alone when it holds a letter and a digit, and one in the quotes of these scripts", () => {
    const cases: [string, string][] = [
      ["root 密码 abcd5678", "root 密码 [redacted: secret-assignment]"],
      ["数据库密码 Xk92mPq7 记得改", "数据库密码 [redacted: secret-assignment] 记得改"],
      ["用户名 admin 密码 admin123", "用户名 admin 密码 [redacted: secret-assignment]"],
      ["パスワード abc12345 です", "パスワード [redacted: secret-assignment] です"],
      ["密码 ab12", "密码 [redacted: secret-assignment]"],
      ["密码是「abcd5678」", "密码是「[redacted: secret-assignment]」"],
      ["密码：『hunter2024』", "密码：『[redacted: secret-assignment]』"],
      ["令牌为“tok3n-value”。", "令牌为“[redacted: secret-assignment]”。"],
      ["数据库密码就是 Zh6nLeak06", "数据库密码就是 [redacted: secret-assignment]"],
      ["APIキーは Jp9bLeak09xy です", "APIキーは [redacted: secret-assignment] です"],
      [
        "アクセストークンは Jp0cLeak10ab なので",
        "アクセストークンは [redacted: secret-assignment] なので",
      ],
      ["トークン：TrBLeakB2zz", "トークン：[redacted: secret-assignment]"],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text), text).toBe(want);
      expect(redactSecrets(want), want).toBe(want);
    }
    // After a space alone: three characters, no digit or no letter is not a value.
    for (const plain of [
      "密码 a12",
      "密码 abcdef",
      "密码 123456",
      "密码 policy 很严格",
      "修改密码 API 的文档",
    ])
      expect(redactSecrets(plain), plain).toBe(plain);
  });

  it("leaves an algorithm's or encoding's name after a secret's name", () => {
    for (const plain of [
      "密码是 bcrypt 哈希存储的",
      "密钥：AES-256-GCM",
      "密码 SHA256 存储",
      "私钥为 ed25519",
      "密钥是 base64 编码的",
      "密码：argon2id",
      "令牌是 OAuth2 的",
      "密钥是 ECDSA-P256",
      "密钥为 X25519",
      "密码 sha256sum 校验",
      "密码为 8-16 位字母数字组合",
      "密钥为 SM4-128",
      "令牌是 GPT4 的计费单位",
    ])
      expect(redactSecrets(plain), plain).toBe(plain);
  });

  it("leaves prose about passwords and keys alone, placeholders and non-ASCII values included", () => {
    for (const plain of [
      "密码学是一门学科",
      "修改密码的流程",
      "修改密码的流程：先登录，再进入设置。",
      "请输入密码。",
      "密码为空",
      "密码：一二三四",
      "密码：至少 8 位",
      "口令是什么？",
      "令牌桶算法：每秒补充令牌",
      "今天完成了认证系统的重构，使用JWT令牌。",
      "私钥要妥善保管",
      "パスワードを変更する",
      "パスワードは8文字以上",
      "비밀번호를 잊었습니다",
      "密码：none",
      "密码: <your-key>。",
      "密码：***",
      "密码：xxxx",
      "密钥=${DB_KEY}",
      "密码：[redacted]",
      `密码：${R}`,
    ])
      expect(redactSecrets(plain), plain).toBe(plain);
  });

  it("redacts an English name's value after a full-width colon as after an ASCII one, whatever its length", () => {
    const cases: [string, string][] = [
      ["password：hunter2", `password：${R}`],
      ["password：abc", `password：${R}`],
      ["API_KEY：abc1234 then", `API_KEY：${R} then`],
      ["password：hunter2。下一步", `password：${R}。下一步`],
      ["password＝hunter2", `password＝${R}`],
      ['"password"："hunter two"', `"password"："${R}"`],
    ];
    for (const [text, want] of cases) {
      expect(redactSecrets(text), text).toBe(want);
      expect(redactSecrets(want), want).toBe(want);
    }
    for (const plain of ["max_tokens：4096", "password：none", "token：${TOKEN}"])
      expect(redactSecrets(plain), plain).toBe(plain);
  });
});

describe("isSecretName", () => {
  it("names a secret's field as the assignment pattern does, and not a count or an ordinary key", () => {
    for (const n of [
      "api_key",
      "client_secret",
      "db_password",
      "GH_TOKEN",
      "SECRET_KEY",
      "DB_PASS",
      "pwd",
      "密码",
      "数据库密码",
      "パスワード",
      "비밀번호",
      "令牌",
    ])
      expect(isSecretName(n), n).toBe(true);
    for (const n of [
      "max_tokens",
      "sort_key",
      "primary_key",
      "monkey",
      "passage",
      "密码学",
      "令牌桶",
    ])
      expect(isSecretName(n), n).toBe(false);
  });
});
