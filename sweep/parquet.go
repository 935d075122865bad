package sweep

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// ExportParquet writes the rows ExportCSV writes as a Parquet file: a
// column is a double where every value of it is a number, else a string;
// every column is optional (a failed cell has no metrics).
func (d *DB) ExportParquet(w io.Writer) error {
	header, records, err := d.table()
	if err != nil {
		return err
	}
	numeric := make([]bool, len(header))
	for j := range header {
		numeric[j] = true
		for _, r := range records {
			if v := r[j]; v != nil {
				if _, ok := number(v); !ok {
					numeric[j] = false
					break
				}
			}
		}
	}
	group := parquet.Group{}
	for j, h := range header {
		if numeric[j] {
			group[h] = parquet.Optional(parquet.Leaf(parquet.DoubleType))
		} else {
			group[h] = parquet.Optional(parquet.String())
		}
	}
	pw := parquet.NewWriter(w, parquet.NewSchema("results", group))
	for _, r := range records {
		row := make(map[string]any, len(header))
		for j, h := range header {
			switch v := r[j]; {
			case v == nil:
				row[h] = nil
			case numeric[j]:
				row[h], _ = number(v)
			default:
				row[h] = cellText(v)
			}
		}
		if err := pw.Write(row); err != nil {
			return fmt.Errorf("parquet: %v", err)
		}
	}
	return pw.Close()
}
