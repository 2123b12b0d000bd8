package ledger

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// ChartAccount is an account of a chart to seed.
type ChartAccount struct {
	Code, Name    string
	NeverNegative bool
}

// DemoChart is a small PUC-style chart for a sports club. Its codes are
// the defaults of the payment and ticket postings (tickets sold and not
// used yet are a liability, 2.8.10; their use is income, 4.1.15, and so is
// their expiry, 4.1.20) and of the cash-register close.
var DemoChart = []ChartAccount{
	{"1", "Activo", false}, {"1.1", "Disponible", false}, {"1.1.05", "Caja", false},
	{"1.1.05.01", "Caja general (cajero)", true}, {"1.1.05.02", "Caja fuerte (bóveda)", true},
	{"1.1.10", "Bancos", false}, {"1.1.10.01", "Banco, cuenta corriente", false},
	{"1.3", "Deudores", false}, {"1.3.05", "Clientes", false},
	{"2", "Pasivo", false}, {"2.4", "Impuestos", false}, {"2.4.08", "IVA por pagar", false},
	{"2.8", "Otros pasivos", false}, {"2.8.05", "Anticipos de clientes", false},
	{"2.8.10", "Tiquetes vendidos por usar", false},
	{"3", "Patrimonio", false}, {"3.1", "Resultados del ejercicio", false}, {"3.2", "Capital", false},
	{"3.2.05", "Capital social", false}, {"3.3", "Resultados acumulados", false},
	{"4", "Ingresos", false}, {"4.1", "Ingresos operacionales", false}, {"4.1.05", "Alquiler de canchas", false},
	{"4.1.10", "Clases", false}, {"4.1.15", "Eventos y tiquetes", false},
	{"4.1.20", "Tiquetes vencidos", false},
	{"5", "Gastos", false}, {"5.1", "Gastos operacionales", false}, {"5.1.05", "Personal", false},
	{"5.1.35", "Servicios", false}, {"5.1.45", "Mantenimiento", false},
}

// SeedChart adds the accounts of chart that are missing, parents first (a
// chart lists them in that order), in one transaction; it is idempotent.
func (l *Ledger) SeedChart(ctx context.Context, by clubhouse.Actor, chart []ChartAccount) error {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return err
	}
	return sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		for _, a := range chart {
			if !validCode(a.Code) {
				return fmt.Errorf("seed chart: %s: %w", a.Code, ErrBadCode)
			}
			class := int(a.Code[0] - '0')
			_, err := tx.ExecContext(ctx, `INSERT INTO accounts (code, name, parent_id, normal_side, never_negative)
				VALUES ($1, $2, (SELECT id FROM accounts WHERE code = $3), $4, $5) ON CONFLICT (code) DO NOTHING`,
				a.Code, a.Name, ParentCode(a.Code), DefaultSide(class), a.NeverNegative)
			if err != nil {
				return fmt.Errorf("seed chart: %s: %w", a.Code, err)
			}
		}
		// Group accounts take no postings.
		_, err := tx.ExecContext(ctx, `UPDATE accounts p SET postable = false
			WHERE postable AND EXISTS (SELECT 1 FROM accounts c WHERE c.parent_id = p.id)`)
		return err
	})
}
