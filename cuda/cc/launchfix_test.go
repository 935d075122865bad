package cc

import "testing"

func TestJoinLaunchBrackets(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"spaced", "k<< <grid, block >> >(a);", "k<<< grid, block >>> (a);"},
		{"spaced_both_sides", "k << < 1, 2 > > > (a);", "k <<<  1, 2 >>>   (a);"},
		{"already_joined", "k<<<1, 2>>>(a);", "k<<<1, 2>>>(a);"},
		{"joined_open_spaced_close", "k<<<1, 2 >> >(a);", "k<<<1, 2 >>> (a);"},
		{"newline_kept", "k<<\n<1, 2>>\n>(a);", "k<<<\n1, 2>>>\n(a);"},
		{"comment_between", "k<</*x*/<1, 2>>>(a);", "k<<</*x*/1, 2>>>(a);"},
		{"four_args", "k<< <g, b, n * sizeof(float), s >> >(p);", "k<<< g, b, n * sizeof(float), s >>> (p);"},
		{"template_in_config", "k<< <f<int>(n), min<int>(a, b) >> >(p);", "k<<< f<int>(n), min<int>(a, b) >>> (p);"},
		{"template_kernel", "k<float><< <1, 2 >> >(p);", "k<float><<< 1, 2 >>> (p);"},
		{"brace_init", "k<< <dim3{1, 2, 1}, 32 >> >(p);", "k<<< dim3{1, 2, 1}, 32 >>> (p);"},
		{"nested_template_close_untouched", "std::vector<std::vector<std::pair<int, int>> > v;", "std::vector<std::vector<std::pair<int, int>> > v;"},
		{"shift_untouched", "x = a << b; y = c >> d >> e;", "x = a << b; y = c >> d >> e;"},
		{"shift_assign_untouched", "x <<= 3; y >>= 2; z = a >> >b;", "x <<= 3; y >>= 2; z = a >> >b;"},
		{"in_string_untouched", `printf("k<< <1,1>> >()"); k<< <1, 1 >> >();`, `printf("k<< <1,1>> >()"); k<<< 1, 1 >>> ();`},
		{"in_char_untouched", `c = '<'; d = '>'; k<< <1, 1 >> >();`, `c = '<'; d = '>'; k<<< 1, 1 >>> ();`},
		{"in_comment_untouched", "// k<< <1,1>> >()\nk<< <1, 1 >> >();", "// k<< <1,1>> >()\nk<<< 1, 1 >>> ();"},
		{"in_block_comment_untouched", "/* k<< <1,1>> >() */", "/* k<< <1,1>> >() */"},
		{"raw_string_untouched", `s = R"x(k<< <1,1>> >())x"; k<< <1, 1 >> >();`, `s = R"x(k<< <1,1>> >())x"; k<<< 1, 1 >>> ();`},
		{"digit_separator", "n = 1'000'000; k<< <1, 1 >> >();", "n = 1'000'000; k<<< 1, 1 >>> ();"},
		{"unclosed_untouched", "k<< <1, 1; >> >", "k<< <1, 1; >> >"},
		{"two_launches", "a<< <1, 2 >> >(); b<< <3, 4 >> >();", "a<<< 1, 2 >>> (); b<<< 3, 4 >>> ();"},
		{"cout_untouched", "std::cout << x << std::endl;", "std::cout << x << std::endl;"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed := JoinLaunchBrackets([]byte(c.in))
			if string(got) != c.want {
				t.Errorf("JoinLaunchBrackets(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if changed != (c.in != c.want) {
				t.Errorf("changed = %v", changed)
			}
			if len(got) != len(c.in) {
				t.Errorf("length %d, want %d (only characters move)", len(got), len(c.in))
			}
		})
	}
}
