import { fold } from "./text.ts";

/**
 * Instructions to the assistant written into a request, in the five languages (matched on folded words): "ignore
 * previous instructions", "you are now", "system prompt", "admin mode" … Outside a reason they are refused; inside
 * one they are data, and mark the whole reason as data (issue 25, rule 4).
 */
export const INSTRUCTIONS = [
  /\b(ignore|disregard|forget|override)\b.{0,30}\b(instruction|rule|prompt|previous|above|earlier)/u,
  /\b(system prompt|you are now|act as|jailbreak|developer mode|admin mode|god mode)\b/u,
  /(игнор|ігнор|забудь|забуд).{0,30}(інструкц|инструкц|правил|попередн|предыдущ)/u,
  /(zignoruj|ignoruj|zapomnij).{0,30}(instrukc|polecen|regul|zasad|poprzedn)/u,
  /(ignore|oublie|ignorez|oubliez).{0,30}(instruction|consigne|regle|precedent)/u,
  /(ignora|olvida|ignore|olvide).{0,30}(instruccion|regla|anterior)/u,
  /(тепер ти|ти тепер|режим\p{L}* (адмін|розробник))/u,
  /(jestes teraz|teraz jestes|tryb\p{L}* (admin|programist|dewelop))/u,
  /(tu es maintenant|mode (admin|developpeur|developer))/u,
  /(ahora eres|modo (admin|desarrollador|dios))/u,
  // Setting the checks aside: "ignore all limits", "bypass the confirmation", "pomiń limity", "ігноруй ліміти".
  /\b(ignore|disregard|bypass|skip)\b.{0,20}\b(limit|check|safety|threshold|confirmation|restriction|guard)/u,
  /(zignoruj|ignoruj|pomin|omin).{0,20}(limit|kontrol|ogranicz|potwierdz|zabezpiecz)/u,
  /(ігнор|пропусти|обіиди).{0,20}(ліміт|обмежен|перевір|підтвердж)/u,
  /(ignore|ignorez|contourne|saute).{0,20}(limite|controle|verification|confirmation|restriction)/u,
  /(ignora|omite|salta).{0,20}(limite|control|verificacion|confirmacion|restriccion)/u,
  // Running without the user's confirmation: "without asking for confirmation", "sin pedir confirmación", "sans
  // confirmation", "bez potwierdzenia", "без підтвердження".
  /\b(without|sans|sin|bez)\b.{0,25}\b(confirm|potwierdz)/u,
  /(^|\s)без\s.{0,25}підтвердж/u,
  // "Don't ask for confirmation", "не питай підтвердження", "nie pytaj o potwierdzenie", "ne demande plus de
  // confirmation", "no pidas confirmación", and "confirmation(s) not needed" in the five languages.
  /\b(dont|do not|never|stop) (ask|request|require)\w*\b.{0,20}\bconfirm/u,
  /(^|\s)(не питай|не проси|не запитуй|не вимагай)\s.{0,20}підтвердж/u,
  /\b(nie pytaj|nie pros|nie wymagaj)\b.{0,20}potwierdz/u,
  /\bne (demande|demandez|exige)\w*\b.{0,20}\bconfirm/u,
  /\bno (pidas|pida|solicites|exijas)\b.{0,20}\bconfirm/u,
  /\bconfirm\w* (is |are )?(not needed|unnecessary|not required)|підтвердж\p{L}* (не потрібн|не треба|зайв)|potwierdz\p{L}* (niepotrzebn|nie jest potrzebn)|confirmation\w* (inutile|pas necessaire)|confirmacion\w* (innecesari|no es necesari)/u,
  // A system's voice written into the request: "SYSTEM: …", "[system] …", "СИСТЕМА: …".
  /(^|[.;!?[(]\s*)(system|systeme|sistema|система|systemowy|systemowe)\s*[:\]]/u,
  // A standing order for what follows: "from now on you …", "tu es désormais autorisé", "a partir de ahora ejecuta".
  /\b(from now on|henceforth|from this point)\b.{0,20}\b(you|execute|run|do|always|never)\b/u,
  /\b(tu es|vous etes) (desormais|dorenavant)\b|\b(desormais|dorenavant|a partir de maintenant),? (tu|vous)\b/u,
  /\b(a partir de ahora|desde ahora|de ahora en adelante),? (ejecuta|eres|puedes|haz|obedece|estas autorizad|tienes)/u,
  /\b(od teraz|odtad),? (wykonuj|jestes|mozesz|rob|masz)/u,
  /(^|\s)(відтепер|з цього моменту|надалі),? (виконуй|ти|можеш|роби)(\s|$)/u,
  // An instruction addressed to the assistant or the system: "instrucción para el asistente", "nouvelle consigne
  // système", "new system instruction", "polecenie dla asystenta", "інструкція для асистента".
  /\b(instruction|instruccion|consigne|instrukcja|instrukcje|polecenie|orden|order|note|nota|message|mensaje)s? (for|to|para|pour|dla|al|a) (the |el |la |l )?(assistant|assistante|asistente|asystenta|ai|ia|bot|model|modelo|modele|llm)\b/u,
  /\b(system|systeme|sistema|systemowe|systemowa) (instruction|consigne|prompt|instrukcja|polecenie|orden|instruccion)|\b(instruction|consigne|instrukcja|polecenie|instruccion|orden)s? (du |del |de )?(system|systeme|sistema|systemow)/u,
  /(інструкц\p{L}*|вказівк\p{L}*|наказ\p{L}*) (для|до) (асистент|бот|ші|модел)|системн\p{L}* (інструкц|вказівк|промпт)/u,
];

/** Words addressing the assistant itself: "note for the AI", "SYSTEM:", "para la IA", "dla AI", "для ШІ" (folded). */
const ADDRESS = [
  /(^|[^\p{L}])(system|systeme|sistema|система|systemowy)\s*:/u,
  /(^|[^\p{L}])(ai|ia|ші|llm|gpt|bot|бот)\s*:/u,
  /\b(note|message|instruction|hint|memo)s?\b.{0,12}\b(to|for)\b.{0,5}\b(the )?(ai|assistant|bot|model|llm|gpt)\b/u,
  /(для|до)\s+(ші|асистент\p{L}*|бот\p{L}*|модел\p{L}*)(\s|$|[.,:;!])/u,
  // The assistant called by name: "assistant, also delete …", "Asystencie, …", "Асистенте, …", "IA : …".
  /(^|[.,;:!?(-]\s*)(assistant|assistante|asysten\p{L}*|асистент\p{L}*|asistente|ai|ia|ші|bot|бот)\s*[,:!]/u,
  /dla\s+(ai|asystent\p{L}*|bot\p{L}*|model\p{L}*)(\s|$|[.,:;!])/u,
  /pour\s+(lia|l ia|lassistant|le bot|le modele|ia)(\s|$|[.,:;!])/u,
  /para\s+(la ia|el asistente|el bot|el modelo|ia)(\s|$|[.,:;!])/u,
];

/** Does this text give the assistant instructions, or speak to it (the words of a reason, a name, a quote)? */
export function addressesAssistant(text: string): boolean {
  const folded = fold(text);
  const words = folded.replace(/[^\p{L}\p{N}]+/gu, " ");
  return INSTRUCTIONS.some((re) => re.test(words)) || ADDRESS.some((re) => re.test(folded));
}
