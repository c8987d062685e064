CREATE TABLE "token_lots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"remaining" integer NOT NULL,
	"cause" text NOT NULL,
	"source_ref" text NOT NULL,
	"purchased_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"seq" bigserial NOT NULL,
	CONSTRAINT "token_lots_remaining_range" CHECK ("token_lots"."remaining" >= 0 and "token_lots"."remaining" <= "token_lots"."amount"),
	CONSTRAINT "token_lots_amount_positive" CHECK ("token_lots"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "token_spend_allocations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"spend_id" uuid NOT NULL,
	"lot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"tokens" integer NOT NULL,
	"spent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_spends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"millis" integer NOT NULL,
	"tokens" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"spent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "token_lots" ADD CONSTRAINT "token_lots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_spend_allocations" ADD CONSTRAINT "token_spend_allocations_spend_id_token_spends_id_fk" FOREIGN KEY ("spend_id") REFERENCES "public"."token_spends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_spend_allocations" ADD CONSTRAINT "token_spend_allocations_lot_id_token_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."token_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_spends" ADD CONSTRAINT "token_spends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "token_lots_source_key" ON "token_lots" USING btree ("source_ref");--> statement-breakpoint
CREATE INDEX "token_lots_spendable_idx" ON "token_lots" USING btree ("user_id","purchased_at","seq") WHERE "token_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "token_lots_history_idx" ON "token_lots" USING btree ("user_id","purchased_at","seq");--> statement-breakpoint
CREATE INDEX "token_spend_allocations_user_idx" ON "token_spend_allocations" USING btree ("user_id","spent_at");--> statement-breakpoint
CREATE INDEX "token_spend_allocations_spend_idx" ON "token_spend_allocations" USING btree ("spend_id");--> statement-breakpoint
CREATE UNIQUE INDEX "token_spends_request_key" ON "token_spends" USING btree ("user_id","request_id");--> statement-breakpoint
CREATE INDEX "token_spends_user_idx" ON "token_spends" USING btree ("user_id","spent_at");