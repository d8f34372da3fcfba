"""The sentences the rule tests read, with what the extractor must say about them.

``PRODUCT_EXAMPLES`` are the product's own examples, with every fact each must
give; ``ONE_PER_RULE`` has one sentence per rule, by family: each row is (the
rule's name, a sentence Bob says, one fact it must give), and each family's
test module runs its rows through ``family_cases``.
"""

from __future__ import annotations

from tests.extract.rules.conftest import Triple

PRODUCT_EXAMPLES: list[tuple[str, str | None, set[Triple]]] = [
    ("I prefer TypeScript and a functional style.", "Alice",
     {("Alice", "PREFERS", "TypeScript", "assert"),
      ("Alice", "PREFERS", "functional style", "assert")}),
    ("I favour composition over inheritance.", "Alice",
     {("Alice", "PREFERS", "composition", "assert")}),
    ("The Docker build failed because of the network; use proxy-env.", "Alice",
     {("Docker", "LESSON", "use proxy-env", "assert")}),
    ("The project uses Nuxt 4 with SQLite and Drizzle ORM.", "Alice",
     {("project", "PROJECT_USES", "Nuxt 4", "assert"),
      ("project", "PROJECT_USES", "SQLite", "assert"),
      ("project", "PROJECT_USES", "Drizzle ORM", "assert")}),
    ("I have a business trip to Tokyo next week.", "Alice",
     {("Alice", "TRAVELS_TO", "Tokyo", "assert")}),
    ("We switched from Vue 3 to React last month.", "Alice",
     {("Alice", "USES_FRAMEWORK", "React", "assert")}),
    ("Don't call me Xiao Wang, call me Wang Zong.", "Wang Wei",
     {("Wang Wei", "PREFERRED_NAME", "Xiao Wang", "retract"),
      ("Wang Wei", "PREFERRED_NAME", "Wang Zong", "assert")}),
    ("I cancelled the hiking trip next week.", "Alice",
     {("Alice", "PLANS", "hiking trip", "retract")}),
]

ONE_PER_RULE: dict[str, list[tuple[str, str, Triple]]] = {
    "prefs": [
        # preferences and dislikes; a negated liking is a dislike
        ("likes", "I enjoy reading sci-fi novels.",
         ("Bob", "LIKES", "reading sci-fi novels", "assert")),
        ("loves", "I love hiking.", ("Bob", "LOVES", "hiking", "assert")),
        ("hates", "I hate mornings.", ("Bob", "DISLIKES", "mornings", "assert")),
        ("negated like", "I don't like coffee.", ("Bob", "DISLIKES", "coffee", "assert")),
        ("can't stand", "I can't stand loud restaurants.",
         ("Bob", "DISLIKES", "loud restaurants", "assert")),
        ("rather", "I'd rather use Postgres than MongoDB.",
         ("Bob", "PREFERS", "PostgreSQL", "assert")),
        ("quoted title", 'I loved "Becoming Nicole" by Amy Ellis Nutt.',
         ("Bob", "LOVES", "Becoming Nicole", "assert")),
        # tools, switches, stopping
        ("uses", "I mostly code in Python and TypeScript.", ("Bob", "USES", "Python", "assert")),
        ("framework", "I've been using Django for five years.",
         ("Bob", "USES_FRAMEWORK", "Django", "assert")),
        ("switch multi", "I switched from Vim to VS Code.", ("Bob", "USES", "Vim", "retract")),
        ("stopped using", "I stopped using Jira.", ("Bob", "USES", "Jira", "retract")),
        ("anymore", "I don't use Vue anymore.", ("Bob", "USES_FRAMEWORK", "Vue", "retract")),
        ("moved off", "We moved off Heroku to Vercel.", ("Bob", "USES", "Heroku", "retract")),
        ("team tools", "My team switched to Linear from Jira.", ("Bob", "USES", "Jira", "retract")),
        # what a project is built with; any verb of a project names its stack (dispatch._stack)
        ("project stack", "Our backend is written in Go.",
         ("project", "PROJECT_USES", "Go", "assert")),
        ("project verbs", "The service caches sessions in Redis.",
         ("project", "PROJECT_USES", "Redis", "assert")),
    ],
    "copula": [
        ("fan of", "I'm a huge fan of jazz.", ("Bob", "LIKES", "jazz", "assert")),
        ("favourite", "My favourite band is Coldplay.",
         ("Bob", "FAVORITE_BAND", "Coldplay", "assert")),
        ("from", "I'm originally from Sweden.", ("Bob", "IS_FROM", "Sweden", "assert")),
        ("married", "I'm married to Tom.", ("Bob", "MARRIED_TO", "Tom", "assert")),
        ("my hobby", "My hobby is painting.", ("Bob", "HOBBY", "painting", "assert")),
        ("skill", "I'm good at Python.", ("Bob", "SKILLED_IN", "Python", "assert")),
        ("allergy", "I'm allergic to peanuts.", ("Bob", "ALLERGIC_TO", "peanuts", "assert")),
        # kin and friends named in a noun phrase, wherever it stands
        ("sister", "My sister Anna lives in Paris.", ("Bob", "HAS_SISTER", "Anna", "assert")),
        ("friend", "My friend Jake is a nurse.", ("Bob", "HAS_FRIEND", "Jake", "assert")),
        ("someone's kin", "Emma's brother Jack lives in Glasgow.",
         ("Emma", "HAS_BROTHER", "Jack", "assert")),
    ],
    "work": [
        ("works at", "I work at Acme as a data engineer.", ("Bob", "WORKS_AT", "Acme", "assert")),
        ("job title", "I work at Acme as a data engineer.",
         ("Bob", "JOB_TITLE", "data engineer", "assert")),
        ("joined", "I just joined Google.", ("Bob", "WORKS_AT", "Google", "assert")),
        ("quit", "I quit Acme.", ("Bob", "WORKS_AT", "Acme", "retract")),
        ("third person work", "Alice works at Acme.", ("Alice", "WORKS_AT", "Acme", "assert")),
        ("named thing", "I work for a startup called Ramp.", ("Bob", "WORKS_AT", "Ramp", "assert")),
    ],
    "life": [
        # home
        ("moved", "I moved to Berlin two years ago.", ("Bob", "LIVES_IN", "Berlin", "assert")),
        ("third person move", "Caroline moved to Boston last summer.",
         ("Caroline", "LIVES_IN", "Boston", "assert")),
        ("sister's home", "My sister Anna lives in Paris.",
         ("Anna", "LIVES_IN", "Paris", "assert")),
        # people, pets and possessions
        ("kids", "Melanie has two kids.", ("Melanie", "HAS_CHILD", "two kids", "assert")),
        ("pet", "I have a dog named Max.", ("Bob", "HAS_PET", "Max", "assert")),
        ("bought", "I bought a Tesla last week.", ("Bob", "DRIVES", "Tesla", "assert")),
        ("sold", "I sold my old car.", ("Bob", "OWNS", "car", "retract")),
    ],
    "intent": [
        ("hobby", "I play the guitar in my free time.", ("Bob", "HOBBY", "guitar", "assert")),
        ("learning", "I'm learning Spanish.", ("Bob", "LEARNING", "Spanish", "assert")),
        ("goal", "I want to learn Rust.", ("Bob", "GOAL", "learn Rust", "assert")),
        ("would love", "I'd love to visit Japan someday.",
         ("Bob", "GOAL", "visit Japan", "assert")),
        ("purpose", "I quit my job at the bank to start my own company.",
         ("Bob", "GOAL", "start company", "assert")),
        ("plans", "I'm planning a hiking trip next week.",
         ("Bob", "PLANS", "hiking trip", "assert")),
        # todos
        ("remind me", "Remind me to call mom tomorrow.", ("Bob", "TODO", "call mom", "assert")),
        ("deadline", "I need to send the report by Friday.",
         ("Bob", "TODO", "send the report", "assert")),
    ],
    "events": [
        ("attended", "I went to a pottery class yesterday.",
         ("Bob", "ATTENDED", "pottery class", "assert")),
        ("visited", "I visited Rome last year.", ("Bob", "HAS_VISITED", "Rome", "assert")),
        ("back from", "I just got back from a week in Lisbon.",
         ("Bob", "HAS_VISITED", "Lisbon", "assert")),
        ("cancelled trip", "I cancelled my trip to Paris.",
         ("Bob", "TRAVELS_TO", "Paris", "retract")),
    ],
    "lexical": [
        ("my name", "My name is Priya.", ("Bob", "IS_NAMED", "Priya", "assert")),
        ("call me", "Everyone calls me Bobby.", ("Bob", "PREFERRED_NAME", "Bobby", "assert")),
        ("call me instead", "Please don't call me Robert, just Bob.",
         ("Bob", "PREFERRED_NAME", "Bob", "assert")),
        ("age", "I'm 34 years old.", ("Bob", "AGE", "34", "assert")),
    ],
}
