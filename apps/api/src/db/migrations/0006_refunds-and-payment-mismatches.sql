CREATE TABLE "payment_mismatches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"invoice_tag" text NOT NULL,
	"user_id" uuid,
	"expected_amount_in_cents" integer NOT NULL,
	"expected_currency" text NOT NULL,
	"received_amount_in_cents" integer,
	"received_currency" text,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"payment_intent_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"invoice_tag" text,
	"refunded_in_cents" integer NOT NULL,
	"charged_in_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"tokens_withdrawn" integer DEFAULT 0 NOT NULL,
	"tokens_spent" integer,
	"last_event_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "storefront_order_refunds" (
	"order_id" text NOT NULL,
	"refund_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "storefront_order_refunds_order_id_refund_id_pk" PRIMARY KEY("order_id","refund_id")
);
--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "storefront_order_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "storefront_orders" ADD COLUMN "refunded_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_lots" ADD COLUMN "withdrawn" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_lots" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_mismatches" ADD CONSTRAINT "payment_mismatches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_mismatches_event_key" ON "payment_mismatches" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "payment_mismatches_recorded_idx" ON "payment_mismatches" USING btree ("recorded_at");--> statement-breakpoint
ALTER TABLE "token_lots" ADD CONSTRAINT "token_lots_withdrawn_range" CHECK ("token_lots"."withdrawn" >= 0 and "token_lots"."remaining" + "token_lots"."withdrawn" <= "token_lots"."amount");