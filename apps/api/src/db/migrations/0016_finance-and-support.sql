CREATE TABLE "operator_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_tag" text NOT NULL,
	"reference" text NOT NULL,
	"refund_id" text NOT NULL,
	"amount_in_cents" integer NOT NULL,
	"refunded_in_cents" integer NOT NULL,
	"operator_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"taken_from" jsonb NOT NULL,
	"withdrawn_at" timestamp with time zone NOT NULL,
	CONSTRAINT "token_withdrawals_amount_positive" CHECK ("token_withdrawals"."amount" > 0 and "token_withdrawals"."balance_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "token_lots" DROP CONSTRAINT "token_lots_withdrawn_range";--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "forgiven_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "key_deactivations" ADD COLUMN "forgiven_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_lots" ADD COLUMN "finance_withdrawn" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_withdrawals" ADD CONSTRAINT "token_withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_refunds_reference_key" ON "operator_refunds" USING btree ("invoice_tag","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "token_withdrawals_reference_key" ON "token_withdrawals" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "token_withdrawals_user_idx" ON "token_withdrawals" USING btree ("user_id","withdrawn_at");--> statement-breakpoint
ALTER TABLE "token_lots" ADD CONSTRAINT "token_lots_withdrawn_range" CHECK ("token_lots"."withdrawn" >= 0 and "token_lots"."finance_withdrawn" >= 0 and "token_lots"."remaining" + "token_lots"."withdrawn" + "token_lots"."finance_withdrawn" <= "token_lots"."amount");