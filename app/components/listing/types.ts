/** The data a listing loop renders (defined in core/domain, where the listing use case builds it). */
export type { CardExtras, LoopData } from "../../../core/domain/catalog/listing-view.ts";
