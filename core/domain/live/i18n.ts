/**
 * Fixed texts of the two sports widgets (docs/contract/storefront.md §8, §9). The list widget's 18 stage
 * labels are in the spec's order, and their first 13 are exactly the
 * live-match widget's status table (indices 0–12), so that table is derived
 * rather than written twice.
 */
import { LIST_LANGS, LIVE_LANGS, STATUS_TEXT_COUNT, type ListLang, type LiveLang } from "./constants.ts";

/** Labels in spec order: Finished, Half time, Postponed, Cancelled, Results only, Live, Finished (OT),
 * Finished (P), Awarded, Extra HT, Penalties, Pause, Break time, Q1, Q2, Q3, Q4, OT. */
type Labels = readonly [
  string, string, string, string, string, string, string, string, string,
  string, string, string, string, string, string, string, string, string,
];

export interface ListTexts {
  readonly labels: Labels;
  readonly loading: string;
  /** No matches in any period. */
  readonly empty: string;
  /** docs/contract/storefront.md §8 'Missing details'. */
  readonly detailsLater: string;
}

const q = ["Q1", "Q2", "Q3", "Q4"] as const;

export const LIST_TEXTS: Readonly<Record<ListLang, ListTexts>> = {
  en: {
    labels: ["Finished", "Half time", "Postponed", "Cancelled", "Results only", "Live", "Finished (OT)", "Finished (P)", "Awarded", "Extra HT", "Penalties", "Pause", "Break time", ...q, "OT"],
    loading: "Loading...",
    empty: "No matches",
    detailsLater: "Information will be available later",
  },
  fr: {
    labels: ["Terminé", "Mi-temps", "Reporté", "Annulé", "Résultats seuls", "En direct", "Terminé (prol.)", "Terminé (t.a.b.)", "Sur tapis vert", "Mi-temps prol.", "Tirs au but", "Pause", "Interruption", "QT1", "QT2", "QT3", "QT4", "Prol."],
    loading: "Chargement...",
    empty: "Aucun match",
    detailsLater: "Les informations seront disponibles plus tard",
  },
  de: {
    labels: ["Beendet", "Halbzeit", "Verschoben", "Abgesagt", "Nur Ergebnisse", "Live", "Beendet (n.V.)", "Beendet (i.E.)", "Am grünen Tisch", "HZ Verl.", "Elfmeterschießen", "Pause", "Unterbrechung", "V1", "V2", "V3", "V4", "Verl."],
    loading: "Wird geladen...",
    empty: "Keine Spiele",
    detailsLater: "Informationen folgen später",
  },
  pt: {
    labels: ["Encerrado", "Intervalo", "Adiado", "Cancelado", "Só resultados", "Ao vivo", "Encerrado (prol.)", "Encerrado (pên.)", "W.O.", "Intervalo prol.", "Pênaltis", "Pausa", "Interrupção", ...q, "Prol."],
    loading: "Carregando...",
    empty: "Sem jogos",
    detailsLater: "A informação estará disponível mais tarde",
  },
  id: {
    labels: ["Selesai", "Turun minum", "Ditunda", "Dibatalkan", "Hanya hasil", "Langsung", "Selesai (ET)", "Selesai (P)", "Menang WO", "Jeda ET", "Adu penalti", "Jeda", "Istirahat", ...q, "ET"],
    loading: "Memuat...",
    empty: "Tidak ada pertandingan",
    detailsLater: "Informasi akan tersedia nanti",
  },
  it: {
    labels: ["Finita", "Intervallo", "Rinviata", "Annullata", "Solo risultati", "In diretta", "Finita (d.t.s.)", "Finita (d.c.r.)", "A tavolino", "Interv. suppl.", "Rigori", "Pausa", "Interruzione", ...q, "Suppl."],
    loading: "Caricamento...",
    empty: "Nessuna partita",
    detailsLater: "Informazioni disponibili più tardi",
  },
  ko: {
    labels: ["종료", "하프타임", "연기", "취소", "결과만", "라이브", "종료 (연장)", "종료 (승부차기)", "몰수승", "연장 휴식", "승부차기", "일시 중단", "휴식 시간", "1쿼터", "2쿼터", "3쿼터", "4쿼터", "연장"],
    loading: "로딩 중...",
    empty: "경기 없음",
    detailsLater: "정보는 나중에 제공됩니다",
  },
  pl: {
    labels: ["Zakończony", "Przerwa", "Przełożony", "Odwołany", "Tylko wyniki", "Na żywo", "Zakończony (dogr.)", "Zakończony (k.)", "Walkower", "Przerwa dogr.", "Rzuty karne", "Pauza", "Przerwa techniczna", "K1", "K2", "K3", "K4", "Dogr."],
    loading: "Ładowanie...",
    empty: "Brak meczów",
    detailsLater: "Informacje będą dostępne później",
  },
  ru: {
    labels: ["Завершён", "Перерыв", "Перенесён", "Отменён", "Только результаты", "В эфире", "Завершён (ДВ)", "Завершён (пен.)", "Тех. результат", "Перерыв ДВ", "Серия пенальти", "Пауза", "Тех. перерыв", "1-я чет.", "2-я чет.", "3-я чет.", "4-я чет.", "ДВ"],
    loading: "Загрузка...",
    empty: "Нет матчей",
    detailsLater: "Информация будет доступна позже",
  },
  es: {
    labels: ["Finalizado", "Descanso", "Aplazado", "Cancelado", "Solo resultados", "En vivo", "Finalizado (prór.)", "Finalizado (pen.)", "Adjudicado", "Desc. prórroga", "Penaltis", "Pausa", "Interrupción", "C1", "C2", "C3", "C4", "Prór."],
    loading: "Cargando...",
    empty: "No hay partidos",
    detailsLater: "La información estará disponible más tarde",
  },
  th: {
    labels: ["จบแล้ว", "พักครึ่ง", "เลื่อน", "ยกเลิก", "ผลเท่านั้น", "สด", "จบ (ต่อเวลา)", "จบ (จุดโทษ)", "ชนะผ่าน", "พักต่อเวลา", "ดวลจุดโทษ", "หยุดชั่วคราว", "พัก", ...q, "ต่อเวลา"],
    loading: "กำลังโหลด...",
    empty: "ไม่มีการแข่งขัน",
    detailsLater: "ข้อมูลจะพร้อมในภายหลัง",
  },
  tr: {
    labels: ["Bitti", "Devre arası", "Ertelendi", "İptal", "Yalnız sonuç", "Canlı", "Bitti (UZ)", "Bitti (P)", "Hükmen", "UZ devre arası", "Penaltılar", "Duraklama", "Ara", "Ç1", "Ç2", "Ç3", "Ç4", "UZ"],
    loading: "Yükleniyor...",
    empty: "Maç yok",
    detailsLater: "Bilgi daha sonra verilecek",
  },
  uk: {
    labels: ["Завершено", "Перерва", "Перенесено", "Скасовано", "Лише результати", "Наживо", "Завершено (ДЧ)", "Завершено (пен.)", "Тех. результат", "Перерва ДЧ", "Серія пенальті", "Пауза", "Тех. перерва", "1-а чв.", "2-а чв.", "3-я чв.", "4-а чв.", "ДЧ"],
    loading: "Завантаження...",
    empty: "Немає матчів",
    detailsLater: "Інформація буде доступна пізніше",
  },
  vi: {
    labels: ["Kết thúc", "Nghỉ giữa hiệp", "Hoãn", "Hủy", "Chỉ kết quả", "Trực tiếp", "Kết thúc (HP)", "Kết thúc (PEN)", "Xử thắng", "Nghỉ HP", "Luân lưu", "Tạm dừng", "Giải lao", ...q, "HP"],
    loading: "Đang tải...",
    empty: "Không có trận đấu",
    detailsLater: "Thông tin sẽ có sau",
  },
  nl: {
    labels: ["Afgelopen", "Rust", "Uitgesteld", "Afgelast", "Alleen uitslagen", "Live", "Afgelopen (n.v.)", "Afgelopen (n.s.)", "Reglementair", "Rust verl.", "Strafschoppen", "Pauze", "Onderbreking", "K1", "K2", "K3", "K4", "Verl."],
    loading: "Laden...",
    empty: "Geen wedstrijden",
    detailsLater: "Informatie volgt later",
  },
  ro: {
    labels: ["Încheiat", "Pauză", "Amânat", "Anulat", "Doar rezultate", "Live", "Încheiat (prel.)", "Încheiat (pen.)", "Adjudecat", "Pauză prel.", "Penalty-uri", "Întrerupere", "Pauză tehnică", "S1", "S2", "S3", "S4", "Prel."],
    loading: "Se încarcă...",
    empty: "Niciun meci",
    detailsLater: "Informațiile vor fi disponibile mai târziu",
  },
  ka: {
    labels: ["დასრულდა", "შესვენება", "გადაიდო", "გაუქმდა", "მხოლოდ შედეგები", "ლაივი", "დასრულდა (დამ.)", "დასრულდა (პენ.)", "ტექ. გამარჯვება", "დამ. შესვენება", "პენალტები", "პაუზა", "ტექ. შესვენება", ...q, "დამ."],
    loading: "იტვირთება...",
    empty: "მატჩები არ არის",
    detailsLater: "ინფორმაცია მოგვიანებით იქნება",
  },
  hy: {
    labels: ["Ավարտված", "Ընդմիջում", "Հետաձգված", "Չեղարկված", "Միայն արդյունքներ", "Ուղիղ", "Ավարտված (ԼԺ)", "Ավարտված (11մ)", "Տեխ. հաղթանակ", "ԼԺ ընդմիջում", "11-մետրանոցներ", "Դադար", "Տեխ. ընդմիջում", ...q, "ԼԺ"],
    loading: "Բեռնվում է...",
    empty: "Խաղեր չկան",
    detailsLater: "Տեղեկությունը հասանելի կլինի ավելի ուշ",
  },
  az: {
    labels: ["Bitdi", "Fasilə", "Təxirə salındı", "Ləğv edildi", "Yalnız nəticələr", "Canlı", "Bitdi (ƏV)", "Bitdi (P)", "Texniki qələbə", "ƏV fasiləsi", "Penaltilər", "Pauza", "Texniki fasilə", ...q, "ƏV"],
    loading: "Yüklənir...",
    empty: "Oyun yoxdur",
    detailsLater: "Məlumat daha sonra olacaq",
  },
  el: {
    labels: ["Τελικό", "Ημίχρονο", "Αναβολή", "Ακύρωση", "Μόνο αποτελέσματα", "Ζωντανά", "Τελικό (παρ.)", "Τελικό (πέν.)", "Στα χαρτιά", "Ημίχρ. παρ.", "Πέναλτι", "Παύση", "Διάλειμμα", "Π1", "Π2", "Π3", "Π4", "Παρ."],
    loading: "Φόρτωση...",
    empty: "Δεν υπάρχουν αγώνες",
    detailsLater: "Οι πληροφορίες θα είναι διαθέσιμες αργότερα",
  },
  uz: {
    labels: ["Tugadi", "Tanaffus", "Qoldirildi", "Bekor qilindi", "Faqat natijalar", "Jonli", "Tugadi (QV)", "Tugadi (P)", "Texnik g‘alaba", "QV tanaffusi", "Penaltilar", "Pauza", "Texnik tanaffus", ...q, "QV"],
    loading: "Yuklanmoqda...",
    empty: "O‘yinlar yo‘q",
    detailsLater: "Ma’lumot keyinroq beriladi",
  },
};

export interface LiveTexts {
  /** 13 entries, indices 0–12 (see STATUS_INDEX). */
  readonly statuses: readonly string[];
  /** [0] no live and nothing scheduled; [1] no live, closest match is … */
  readonly messages: readonly [string, string];
  readonly empty: string;
  readonly loading: string;
}

const LIVE_MESSAGES: Readonly<Record<LiveLang, readonly [string, string]>> = {
  en: [
    "At the moment there are no Live matches and there are no scheduled matches for the next 2 days.",
    "At the moment there are no Live matches, the closest match is",
  ],
  nl: [
    "Er zijn momenteel geen live wedstrijden en er zijn geen wedstrijden gepland voor de komende 2 dagen.",
    "Er zijn momenteel geen live wedstrijden, de eerstvolgende wedstrijd is",
  ],
  ro: [
    "Momentan nu există meciuri live și nu sunt meciuri programate în următoarele 2 zile.",
    "Momentan nu există meciuri live, cel mai apropiat meci este",
  ],
  ka: [
    "ამჟამად ლაივ მატჩები არ არის და მომდევნო 2 დღეში მატჩები არ არის დაგეგმილი.",
    "ამჟამად ლაივ მატჩები არ არის, უახლოესი მატჩია",
  ],
  hy: [
    "Այս պահին ուղիղ խաղեր չկան, և առաջիկա 2 օրում նախատեսված խաղեր չկան։",
    "Այս պահին ուղիղ խաղեր չկան, մոտակա խաղն է",
  ],
  az: [
    "Hazırda canlı oyun yoxdur və növbəti 2 gün üçün planlaşdırılmış oyun yoxdur.",
    "Hazırda canlı oyun yoxdur, ən yaxın oyun",
  ],
  el: [
    "Αυτή τη στιγμή δεν υπάρχουν ζωντανοί αγώνες και δεν υπάρχουν προγραμματισμένοι αγώνες για τις επόμενες 2 ημέρες.",
    "Αυτή τη στιγμή δεν υπάρχουν ζωντανοί αγώνες, ο πλησιέστερος αγώνας είναι",
  ],
  pl: [
    "Obecnie nie ma meczów na żywo ani zaplanowanych meczów na najbliższe 2 dni.",
    "Obecnie nie ma meczów na żywo, najbliższy mecz to",
  ],
  uz: [
    "Hozirda jonli o‘yinlar yo‘q va keyingi 2 kunga rejalashtirilgan o‘yinlar yo‘q.",
    "Hozirda jonli o‘yinlar yo‘q, eng yaqin o‘yin",
  ],
};

export const LIVE_TEXTS: Readonly<Record<LiveLang, LiveTexts>> = Object.fromEntries(
  LIVE_LANGS.map((lang) => {
    const list = LIST_TEXTS[lang];
    const texts: LiveTexts = {
      statuses: list.labels.slice(0, STATUS_TEXT_COUNT),
      messages: LIVE_MESSAGES[lang],
      empty: list.empty,
      loading: list.loading,
    };
    return [lang, texts];
  }),
) as Record<LiveLang, LiveTexts>;

/** docs/contract/storefront.md §9: any other lang value gives en. */
export function listLang(lang: unknown): ListLang {
  return typeof lang === "string" && (LIST_LANGS as readonly string[]).includes(lang) ? (lang as ListLang) : "en";
}

/** docs/contract/storefront.md §2: allowed data-lang values nl, ro, ka, hy, az, el, pl, uz; anything else gives en. */
export function liveLang(lang: unknown): LiveLang {
  return typeof lang === "string" && (LIVE_LANGS as readonly string[]).includes(lang) ? (lang as LiveLang) : "en";
}

export function listTexts(lang: unknown): ListTexts {
  return LIST_TEXTS[listLang(lang)];
}

export function liveTexts(lang: unknown): LiveTexts {
  return LIVE_TEXTS[liveLang(lang)];
}
