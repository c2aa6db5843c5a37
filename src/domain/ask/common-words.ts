// The words of a question that name no topic of the lexicon (lexicon.ts), and what parse.ts makes of them: English
// two-letter words (not state codes), the names of the nation, the words of an order or a pace (the intent's) and
// the fillers that carry no subject. Data, not code.

/** Two-letter words of English: in lower case they are words, not state codes ("in", "me", "or", "hi"). */
export const TWO_LETTER_WORDS: ReadonlySet<string> = new Set(
  "in me or ok hi oh pa de la ma al co id mo ne ga va wa us as an at be by do go he if is it my no of on so to up we am ad ah ax eh ex ha ho lo mi mu nu oi ow ox pi re ta ti xi ya ye yo".split(
    " ",
  ),
);

/** Words that name the United States as a whole. */
export const NATIONAL_PHRASES: readonly string[] = [
  "united states of america",
  "united states",
  "the us",
  "the usa",
  "usa",
  "america",
  "the nation",
  "nationally",
  "nationwide",
  "national",
  "the country",
  "u s a",
  "u s",
];

/** Words that ask for an order, an extreme or a pace: the intent's (intent.ts), never what the catalog is searched for. */
export const ORDER_WORDS: ReadonlySet<string> = new Set(
  "most least highest lowest top bottom biggest smallest largest fewest fastest slowest best worst record records fast faster quickly quick rapidly slowly".split(
    " ",
  ),
);

/**
 * Words that carry no subject: dropped before the catalog is searched for what no topic named ("what is the birth
 * rate of dogs" leaves "birth rate dogs").
 */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the of in on for at to by from with about and or vs versus compared compare than is are was were be been being has have had do does did " +
    "what whats what's which who how hows how's why when where whether much many current currently latest recent recently now today right " +
    "this that these those there their its it me my our we you your i tell show give get find know look lookup please can could would should " +
    "will going trend trends trending data level levels number numbers value values rate rates figure figures stats statistics statistic " +
    "change changed changing doing up down rising falling rise fall increase increased decrease decreased higher lower high low over past last " +
    "since year years month months week weeks day days decade decades time ever history historical all so far lately like did does any " +
    "state states county counties country countries city place region area us usa america american national nationally overall total " +
    "official estimate estimates measure measured per capita percent percentage annual annually monthly quarterly yearly price prices cost costs"
  ).split(" "),
);
