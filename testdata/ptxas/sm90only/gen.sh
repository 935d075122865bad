#!/bin/bash
# Writes NAME.ptx for every line of forms.txt: one kernel whose body is the
# form, under .target sm_80 (record.sh of testdata/sanitize/probe7 raises
# the target to sm_90 and sm_90a for its other two ptxas runs).
cd "$(dirname "$0")"
grep -v '^#' forms.txt | while IFS='|' read n ins; do
  printf '.version 8.7\n.target sm_80\n.address_size 64\n\n.visible .entry k(.param .u64 p)\n{\n\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n\t.reg .f32 %%f<8>;\n\t.reg .f64 %%fd<24>;\n\t%s\n\tret;\n}\n' "$ins" > $n.ptx
done
