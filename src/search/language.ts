/**
 * Both embedding models are English-only: a query in another language lands
 * near whatever shares a cognate with it (`receta de pasta` next to a taco
 * recipe), so search refuses it up front and answers no results, without
 * calling the model. The test is deliberately simple and explainable:
 * mostly non-Latin letters, or more function words of other European
 * languages than English ones. A query with neither counts as English.
 */

// Common function words of English. "i" is left out: it is also Italian.
const ENGLISH = new Set(
  "a an the and or but of to in on at by for with from as is are was were be been it its this that these those my your his her our their me you he she we they how what why when where which who do does did can could should would will not no yes if so than then there here about into over under after before".split(
    " ",
  ),
);

// Function words of French, German, Spanish, Italian, Portuguese, Dutch, Swedish, Danish, Norwegian and Polish
// that are not English words.
const FOREIGN = new Set(
  [
    "le la les un une des du au aux et ou mais est sont mon ma mes ton ta tes son sa ses nous vous ils elles je tu pas pour avec dans sur qui que quoi comment pourquoi très à où ce cette ces être avoir",
    "der die das ein eine einen dem den des und oder aber ist sind ich du er sie wir ihr mein meine dein sein nicht mit für auf aus bei nach von zu wie was warum wo kann können habe haben ist auch noch sehr",
    "el los las una unos unas y o pero es son mi mis tu tus su sus yo nosotros con sin para por del al que qué cómo como dónde cuándo muy se lo hay está están",
    "il lo gli della delle dello degli nel nella nell nei sul sulla di da che chi come perché sono è un una uno ed anche molto questo questa",
    "os um uma e é são meu minha seu sua nós com sem para pelo pela do da dos das não muito onde quando o",
    "het een en of maar is zijn ik jij je hij wij mijn jouw niet met voor op uit bij naar van wat hoe waarom waar als moet kan ook",
    "och att det en ett är jag du han hon vi mitt min din inte med för på av till hur vad varför var inför som också mycket",
    "og er jeg ikke med til af på hvad hvordan hvorfor",
    "jak co w z na do od że nie się jest są mój moja dla przez czy gdzie",
  ]
    .join(" ")
    .split(" ")
    .filter((w) => !ENGLISH.has(w)),
);

export function looksEnglish(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (!letters.length) return true;
  const latin = letters.filter((ch) => /\p{Script=Latin}/u.test(ch)).length;
  if (latin / letters.length < 0.5) return false;
  let english = 0;
  let foreign = 0;
  for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (ENGLISH.has(w)) english++;
    else if (FOREIGN.has(w)) foreign++;
  }
  return foreign <= english;
}
